package store

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// Resuming from a previous file's marks gives the SHA-256 of the whole
// new file, whatever the edit: an append near the end, a change in the
// middle or in the first chunk, a file shorter or longer than the last,
// one that shares nothing, edits on a mark's boundary.
func TestMarkedHashIsTheWholeHash(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 5*markEvery+1234)
	for i := range data {
		data[i] = byte(r.IntN(256))
	}
	sum, marks := sha256Marked(nil, data)
	if sum != sha256Hex(data) || len(marks.states) != 5 {
		t.Fatalf("fresh: %s, %d marks; want %s, 5", sum, len(marks.states), sha256Hex(data))
	}
	edits := map[string]func([]byte) []byte{
		"append near the end": func(b []byte) []byte {
			at := len(b) - 40
			return slices.Concat(b[:at], []byte(`,{"id":"new"}`), b[at:])
		},
		"change in the middle": func(b []byte) []byte { b = bytes.Clone(b); b[len(b)/2] ^= 1; return b },
		"change at the start":  func(b []byte) []byte { b = bytes.Clone(b); b[0] ^= 1; return b },
		"change on a mark":     func(b []byte) []byte { b = bytes.Clone(b); b[2*markEvery] ^= 1; return b },
		"change before a mark": func(b []byte) []byte { b = bytes.Clone(b); b[2*markEvery-1] ^= 1; return b },
		"cut to a mark":        func(b []byte) []byte { return bytes.Clone(b[:3*markEvery]) },
		"cut short":            func(b []byte) []byte { return bytes.Clone(b[:markEvery/2]) },
		"grown":                func(b []byte) []byte { return slices.Concat(b, b) },
		"unchanged":            func(b []byte) []byte { return bytes.Clone(b) },
		"empty":                func([]byte) []byte { return nil },
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			prev, cur := marks, data
			// A chain of commits, each resuming from the last one's marks.
			for step := range 4 {
				cur = edit(cur)
				var sum string
				sum, prev = sha256Marked(prev, cur)
				if want := sha256Hex(cur); sum != want {
					t.Fatalf("step %d: %s, want %s", step, sum, want)
				}
				if prev == nil || len(prev.states) != len(cur)/markEvery {
					t.Fatalf("step %d: marks %v for %d bytes", step, prev, len(cur))
				}
			}
		})
	}
}

// A commit's marks are resumed by the scene's next commit, and the
// recorded SHA-256 of each revision is that of its bytes (the read-back
// compares the bytes; here the record itself).
func TestCommitsOfALargeSceneRecordTheirHash(t *testing.T) {
	s := testStore(t)
	n := 3 * markEvery / 20 // elements of about 20 bytes: a few marks
	mustCreate(t, s, "big", n, "a")
	rev := int64(1)
	for i := range 4 {
		data := doc(n+i, "a") // the same prefix, one element more
		res := mustSave(t, s, "big", rev, data)
		rev = res.Revision
		if res.SHA256 != sha256Hex(data) {
			t.Fatalf("revision %d records %s, want %s", rev, res.SHA256, sha256Hex(data))
		}
		m := s.marksOf("big")
		if m == nil && s.fineCtimes() {
			t.Fatalf("revision %d: no marks kept", rev)
		}
		if m != nil && !bytes.Equal(m.data, data) {
			t.Fatalf("revision %d: marks of other bytes", rev)
		}
	}
	got, err := s.Read(bg, "big")
	if err != nil || got.SHA256 != sha256Hex(got.Data) {
		t.Fatalf("read: %v, %v", got, err)
	}
}
