package excalidraw_test

import (
	"testing"

	"go.uber.org/goleak"
)

// The tests beside the plugin start a real host with it (package
// hosttest) and reach it as its users do: over HTTP and MCP.

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
