package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestStrict(t *testing.T) {
	for _, tc := range []struct {
		ci, all string
		want    bool
	}{
		{"", "", false},
		{"true", "", true},
		{"", "1", true},
		{"false", "0", false},
	} {
		t.Setenv("CI", tc.ci)
		t.Setenv("DSH_REQUIRE_ALL", tc.all)
		if got := Strict(); got != tc.want {
			t.Errorf("CI=%q DSH_REQUIRE_ALL=%q: Strict() = %v", tc.ci, tc.all, got)
		}
	}
}

// TestMissingFailsWhenStrict runs a test that calls Missing in a child
// process, strict and not: strict, the child fails and says what is
// missing; otherwise it skips.
func TestMissingFailsWhenStrict(t *testing.T) {
	if os.Getenv("TESTENV_CHILD") == "1" {
		Missing(t, "chromium is not installed")
		return
	}
	for _, strict := range []bool{false, true} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingFailsWhenStrict$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTENV_CHILD=1", "CI=", "DSH_REQUIRE_ALL=")
		if strict {
			cmd.Env = append(cmd.Env, "DSH_REQUIRE_ALL=1")
		}
		out, err := cmd.CombinedOutput()
		switch {
		case strict && (err == nil || !strings.Contains(string(out), "--- FAIL") || !strings.Contains(string(out), "chromium is not installed")):
			t.Errorf("strict: %v\n%s", err, out)
		case !strict && (err != nil || !strings.Contains(string(out), "--- SKIP")):
			t.Errorf("not strict: %v\n%s", err, out)
		}
	}
}
