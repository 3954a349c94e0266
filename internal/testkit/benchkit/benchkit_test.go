package benchkit

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

func TestDurableWriteReplacesTheTarget(t *testing.T) {
	dir := t.TempDir()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	target := filepath.Join(dir, "f")
	for _, s := range []string{"one", "two"} {
		if err := DurableWrite(d, filepath.Join(dir, ".f.tmp"), target, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(target); string(got) != s {
			t.Fatalf("target holds %q, want %q", got, s)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".f.tmp")); !os.IsNotExist(err) {
		t.Fatal("the temp file is left")
	}
}

func TestTogetherRunsEach(t *testing.T) {
	var seen [8]atomic.Bool
	Together(t, len(seen), func(g int) error { seen[g].Store(true); return nil })
	for g := range seen {
		if !seen[g].Load() {
			t.Fatalf("goroutine %d did not run", g)
		}
	}
}
