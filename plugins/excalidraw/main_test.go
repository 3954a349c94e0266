package excalidraw_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

// The tests beside the plugin start a real host with it (package
// hosttest) and reach it as its users do: over HTTP and MCP.

func TestMain(m *testing.M) {
	if env := os.Getenv("DSH_MCP_CPU_CLIENT"); env != "" {
		mcpCPUClient(env) // BenchmarkMCPServerCPU's child: it ends the process
	}
	goleak.VerifyTestMain(pgtestM{m})
}

// pgtestM runs the tests through pgtest.Main, so the throwaway
// PostgreSQL of the tests on the shared database stops before goleak
// checks what is left.
type pgtestM struct{ m *testing.M }

func (p pgtestM) Run() int { return pgtest.Main(p.m) }
