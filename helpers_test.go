package dsh_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// The host these tests start, and the HTTP and MCP clients they reach it
// with, come from package hosttest, which the plugins' tests share.

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// tempDir is a fresh directory for examples, which have no *testing.T.
func tempDir() string {
	d, err := os.MkdirTemp("", "dsh-example-")
	if err != nil {
		panic(err)
	}
	return d
}
