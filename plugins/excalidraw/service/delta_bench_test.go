package service

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDelta is the delta of one one-element commit (an add, as an
// agent's) on a scene of 10 and of 2,000 elements, as an open editor's
// stream asks it after the commit: first, as the first stream to ask
// (nothing shared yet; the store holds the bytes of its own commit), and
// shared, as each further stream of the board. Compare the sizes: the
// issue's goal is a delta whose cost does not grow with the board.
func BenchmarkDelta(b *testing.B) {
	for _, n := range []int{10, 2000} {
		s, _ := benchN(b, n)
		// Two commits, so that the journal entry before the delta's is a
		// small one too, as in an editor's session.
		for rev := int64(1); rev <= 2; rev++ {
			if _, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: rev, Operations: []json.RawMessage{json.RawMessage(fmt.Sprintf(
				`{"op":"add","element":{"type":"rectangle","id":"agent%d","x":0,"y":-100,"width":100,"height":70}}`, rev))}}); err != nil {
				b.Fatal(err)
			}
		}
		for _, shared := range []bool{false, true} {
			b.Run(fmt.Sprintf("%d/shared=%v", n, shared), func(b *testing.B) {
				for b.Loop() {
					if !shared {
						s.deltas.forget()
					}
					d, err := s.Delta(ctx, "big", 2)
					if err != nil || d.Resync || d.Revision != 3 || len(d.Elements) != 1 {
						b.Fatalf("delta %+v, %v", d, err)
					}
				}
			})
		}
	}
}

// forget empties the cache (as before any stream asked).
func (c *deltaCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.boards, c.held = nil, 0
}

// BenchmarkAgentAdd is the write BenchmarkDelta's delta follows (one
// element added through Apply) on a scene of 10 and of 2,000 elements.
func BenchmarkAgentAdd(b *testing.B) {
	for _, n := range []int{10, 2000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s, _ := benchN(b, n)
			rev := int64(1)
			for i := 0; b.Loop(); i++ {
				res, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: rev, Operations: []json.RawMessage{json.RawMessage(fmt.Sprintf(
					`{"op":"add","element":{"type":"rectangle","id":"agent-%d","x":%d,"y":-100,"width":100,"height":70}}`, i, (i%10)*120))}})
				if err != nil {
					b.Fatal(err)
				}
				rev = res.Revision
			}
		})
	}
}

// BenchmarkAgentAddFloor is the disk's share of BenchmarkAgentAdd: the
// scene's bytes written to a temp file, fsynced, renamed over the target
// and the directory fsynced, at each size.
func BenchmarkAgentAddFloor(b *testing.B) {
	for _, n := range []int{10, 2000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			_, dir := benchN(b, n)
			data := fileBytes(b, dir, "big")
			b.SetBytes(int64(len(data)))
			d, err := os.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			target, tmp := filepath.Join(dir, "floor.excalidraw"), filepath.Join(dir, ".floor.tmp")
			for b.Loop() {
				if err := os.WriteFile(tmp, data, 0o600); err != nil {
					b.Fatal(err)
				}
				f, err := os.OpenFile(tmp, os.O_WRONLY, 0)
				if err != nil {
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
