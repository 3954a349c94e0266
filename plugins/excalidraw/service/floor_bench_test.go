package service

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// The floor of a write: what the disk itself costs. BenchmarkDurableWrite
// writes exactly the bytes a one-element apply stores (a temp file, fsync,
// rename over the target, fsync of the directory), so
// BenchmarkApplyOne/<n> ÷ BenchmarkDurableWrite/<n>, measured in the same
// run, is how far a write is from the speed of the disk.
func BenchmarkDurableWrite(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			_, dir := benchN(b, n)
			data := fileBytes(b, dir, "big")
			d, err := os.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			target, tmp := filepath.Join(dir, "floor.excalidraw"), filepath.Join(dir, ".floor.tmp")
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for b.Loop() {
				f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.Write(data); err != nil {
					b.Fatal(err)
				}
				if err := f.Sync(); err != nil {
					b.Fatal(err)
				}
				f.Close()
				if err := os.Rename(tmp, target); err != nil {
					b.Fatal(err)
				}
				if err := d.Sync(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkApplyOne is one update operation (x of one box) through
// Service.Apply on a scene of n boxes: the write the floor bounds.
func BenchmarkApplyOne(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s, _ := benchN(b, n)
			rev := int64(1)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				res, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: rev,
					Operations: []json.RawMessage{json.RawMessage(fmt.Sprintf(`{"op":"update","id":"r500","patch":{"x":%d}}`, i%2))}})
				if err != nil {
					b.Fatal(err)
				}
				rev = res.Revision
			}
			benchReport(b, s)
		})
	}
}

// benchN is a service with scene "big" of n boxes (revision 1).
func benchN(b *testing.B, n int) (*Service, string) {
	s, dir := newTestService(b, scene.Limits{})
	inputs := make([]json.RawMessage, n)
	for i := range inputs {
		inputs[i] = json.RawMessage(fmt.Sprintf(`{"type":"rectangle","id":"r%d","x":%d,"y":%d,"width":80,"height":40}`, i, (i%100)*100, (i/100)*60))
	}
	if _, err := s.Create(ctx, CreateRequest{Name: "big", Elements: inputs}); err != nil {
		b.Fatal(err)
	}
	return s, dir
}

// BenchmarkStaleApply is an Apply whose expected revision another writer
// has already passed, on a 10,000-element scene: what losing a race
// costs (compare BenchmarkApplyOne/10000).
func BenchmarkStaleApply(b *testing.B) {
	s, _ := benchN(b, 10000)
	if _, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: 1,
		Operations: []json.RawMessage{json.RawMessage(`{"op":"update","id":"r5","patch":{"x":1}}`)}}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		_, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: 1,
			Operations: []json.RawMessage{json.RawMessage(`{"op":"update","id":"r5","patch":{"x":2}}`)}})
		if err == nil {
			b.Fatal("a stale apply committed")
		}
	}
}

// benchReport adds what a revision knows of how its writes ran to a
// benchmark's figures (fork_test.go sets it); a no-op otherwise, so this
// file also builds into older revisions for same-run comparisons
// (bench/compare.py).
var benchReport = func(*testing.B, *Service) {}
