package store

import (
	"fmt"
	"os"
	"testing"
)

// noSyncFS skips fsync, to build long journals quickly for benchmarks.
type noSyncFS struct{ FS }

func (noSyncFS) Sync(*os.File) error { return nil }

// BenchmarkLogFirstPage10k reads the first page (20 entries) of a scene's
// journal of 10,000 commits; BenchmarkLogFirstPage20 of 20 commits, the
// baseline: the ratio shows the page costs the same however long the
// history is.
func BenchmarkLogFirstPage10k(b *testing.B) { benchLog(b, 10000) }
func BenchmarkLogFirstPage20(b *testing.B)  { benchLog(b, 20) }

func benchLog(b *testing.B, commits int) {
	s := testStore(b, func(o *Options) { o.FS = noSyncFS{OSFS()}; o.Logger = nil; o.KeepBackups = 1 })
	mustCreate(b, s, "a", 1, "t0")
	for i := 1; i < commits; i++ {
		if _, err := s.Update(bg, UpdateRequest{Name: "a", AnyRevision: true, Actor: ActorAgent,
			Attribution: Attribution{Name: "bench", Via: "bench", Note: fmt.Sprint("commit ", i)},
			Mutate:      func(*Scene) ([]byte, error) { return doc(1, fmt.Sprint("t", i)), nil }}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		page, err := s.Log(bg, LogQuery{Name: "a"})
		if err != nil || len(page.Entries) != 20 || page.Entries[0].Revision != int64(commits) {
			b.Fatalf("page: %v %v", page, err)
		}
	}
}
