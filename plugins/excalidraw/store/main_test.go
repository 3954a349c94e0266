package store

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain doubles as the entry point of the helper process used by the
// cross-process test (the test binary re-executes itself; see
// crossprocess_test.go), and otherwise checks that no test leaks goroutines.
func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(runHelper())
	}
	goleak.VerifyTestMain(m)
}
