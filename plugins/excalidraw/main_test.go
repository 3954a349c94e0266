package excalidraw_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// The tests beside the plugin start a real host with it (package
// hosttest) and reach it as its users do: over HTTP and MCP.

func TestMain(m *testing.M) {
	if env := os.Getenv("DSH_MCP_CPU_CLIENT"); env != "" {
		mcpCPUClient(env) // BenchmarkMCPServerCPU's child: it ends the process
	}
	goleak.VerifyTestMain(m)
}
