package service

import (
	"os"
	"testing"
)

// TestMain runs the kill test's helper process instead of the tests when
// the test binary is started as one (crash_test.go).
func TestMain(m *testing.M) {
	if env := os.Getenv(crashChildEnv); env != "" {
		os.Exit(runCrashChild(env))
	}
	os.Exit(m.Run())
}
