package restorecheck

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDirHoldsTheHarness(t *testing.T) {
	for _, f := range []string{"package.json", "package-lock.json", "restore.mjs", "setup.sh"} {
		if _, err := os.Stat(filepath.Join(Dir(), f)); err != nil {
			t.Fatalf("harness file %s: %v", f, err)
		}
	}
}
