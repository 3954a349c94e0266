package rendercheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// TestMain keeps one harness for the package's tests and checks that
// closing it leaves no goroutine behind.
func TestMain(m *testing.M) {
	code := Main(m)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// TestMissingPrerequisites runs Start in a child process without the Node
// packages, and without Chromium: strict (make test, CI) the test fails
// and says what is missing; otherwise it skips.
func TestMissingPrerequisites(t *testing.T) {
	switch os.Getenv("RENDERCHECK_CHILD") {
	case "packages":
		modulesDir = t.TempDir()
		Start(t)
		t.Fatal("Start returned without the packages")
	case "chromium":
		Start(t)
		t.Fatal("Start returned without Chromium")
	case "":
	default:
		return
	}
	for _, tc := range []struct{ child, says string }{
		{"packages", "@excalidraw/excalidraw is not installed"},
		{"chromium", "chromium is not installed"},
	} {
		if missing, err := checkPackages(); tc.child == "chromium" && (missing != "" || err != nil) {
			continue // Start stops at the packages first
		}
		for _, strict := range []bool{false, true} {
			cmd := exec.Command(os.Args[0], "-test.run=^TestMissingPrerequisites$", "-test.v")
			cmd.Env = append(os.Environ(), "RENDERCHECK_CHILD="+tc.child, "CI=", "DSH_REQUIRE_ALL=", "DSH_CHROMIUM="+filepath.Join(t.TempDir(), "no-chromium"), "PATH=")
			if strict {
				cmd.Env = append(cmd.Env, "DSH_REQUIRE_ALL=1")
			}
			out, err := cmd.CombinedOutput()
			switch {
			case !strings.Contains(string(out), tc.says):
				t.Errorf("%s, strict %v: the output does not say %q:\n%s", tc.child, strict, tc.says, out)
			case strict && (err == nil || !strings.Contains(string(out), "--- FAIL")):
				t.Errorf("%s, strict: %v\n%s", tc.child, err, out)
			case !strict && (err != nil || !strings.Contains(string(out), "--- SKIP")):
				t.Errorf("%s, not strict: %v\n%s", tc.child, err, out)
			}
		}
	}
}
