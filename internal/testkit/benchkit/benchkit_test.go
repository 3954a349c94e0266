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

func TestAloneVsSharedReportsBothHalves(t *testing.T) {
	var arounds, afters atomic.Int32
	r := testing.Benchmark(func(b *testing.B) {
		AloneVsShared(b, 4, 8, func(g int, want int64, won, lost *atomic.Int64) error {
			for won.Load() < want {
				if g%2 == 1 && lost.Load() < 2 {
					lost.Add(1) // a refusal, retried
					continue
				}
				won.Add(1)
			}
			return nil
		}, func() func() {
			arounds.Add(1)
			return func() { afters.Add(1) }
		})
	})
	for _, m := range []string{"alone-writes/s", "shared-writes/s", "shared/alone", "conflicts/success"} {
		if r.Extra[m] <= 0 {
			t.Fatalf("%s = %v (all: %v)", m, r.Extra[m], r.Extra)
		}
	}
	if arounds.Load() == 0 || arounds.Load() != afters.Load() {
		t.Fatalf("around called %d times, its after %d", arounds.Load(), afters.Load())
	}
}
