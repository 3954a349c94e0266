// Package testenv decides what a test does when something it needs from
// the machine is missing (Chromium, Node packages, the built editor): it
// skips on a developer's machine, and fails where everything must run —
// under `make test` (which installs what tests need and sets
// DSH_REQUIRE_ALL=1) and under CI=true. So a test never passes by silently
// not running where its result counts.
package testenv

import (
	"os"
	"os/exec"
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

// chromiumPaths are where Debian and Ubuntu install Chromium.
var chromiumPaths = []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"}

// Chromium is the path of the Chromium browser tests drive: DSH_CHROMIUM
// when set (make test sets it; a path that is not there ends the test
// rather than falling back to another browser), else Debian's paths, else
// PATH. Without one the test ends (Missing).
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("DSH_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			Missing(t, "chromium is not installed at DSH_CHROMIUM="+p)
		}
		return p
	}
	for _, p := range chromiumPaths {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	Missing(t, "chromium is not installed (apt-get install chromium, or make test, which installs it)")
	return ""
}
