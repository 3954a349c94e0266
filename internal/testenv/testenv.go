// Package testenv decides what a test does when something it needs from
// the machine is missing (Chromium, Node packages, the built editor): it
// skips on a developer's machine, and fails where everything must run —
// under `make test` (which installs what tests need and sets
// DSH_REQUIRE_ALL=1) and under CI=true. So a test never passes by silently
// not running where its result counts.
package testenv

import (
	"os"
	"testing"
)

// Strict reports whether missing prerequisites fail tests rather than
// skip them.
func Strict() bool {
	return os.Getenv("CI") == "true" || os.Getenv("DSH_REQUIRE_ALL") == "1"
}

// Missing ends the test because a prerequisite is missing: why says what,
// and how to get it. It fails under Strict and skips otherwise.
func Missing(t testing.TB, why string) {
	t.Helper()
	if Strict() {
		t.Fatal(why + " (required: CI=true or DSH_REQUIRE_ALL=1)")
	}
	t.Skip(why)
}
