package statefile_test

import (
	"testing"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/internal/statefile/statefiletest"
)

// The file backend passes the conformance suite: each "node" is another
// Files on the same directory, as another process would open it.
func TestFilesConformance(t *testing.T) {
	statefiletest.Run(t, func(t *testing.T) func() statefile.Backend {
		dir := t.TempDir()
		return func() statefile.Backend { return statefile.Files(dir) }
	})
}

// Memory windows pass it too; a process's windows are its own, so every
// "node" is the same windows.
func TestMemoryWindowsConformance(t *testing.T) {
	statefiletest.RunWindows(t, func(t *testing.T) func() statefile.Windows {
		w := statefile.NewMemoryWindows()
		return func() statefile.Windows { return w }
	})
}
