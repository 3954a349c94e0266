package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

func entry(rev int64) *Entry {
	return &Entry{Commit: fmt.Sprintf("c%03d", rev), Scene: "s", Revision: rev, PreviousRevision: rev - 1,
		Actor: "agent", Name: "claude", Created: []string{"a"}, Images: ImagesStored}
}

func journalOf(t testing.TB, n int) []byte {
	t.Helper()
	var buf []byte
	for i := 1; i <= n; i++ {
		im := &Images{Before: []Image{{ID: "a", Element: json.RawMessage(`{"id":"a","x":1}`)}},
			After: []State{{ID: "a", Version: int64(i), Hash: "h"}}}
		f, err := Encode(entry(int64(i)), im)
		if err != nil {
			t.Fatal(err)
		}
		buf = append(buf, f...)
	}
	return buf
}

func TestRoundTripAndBackward(t *testing.T) {
	buf := journalOf(t, 5)
	r := bytes.NewReader(buf)
	var revs []int64
	if err := Backward(r, int64(len(buf)), func(f *Frame) bool { revs = append(revs, f.Entry.Revision); return true }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(revs) != "[5 4 3 2 1]" {
		t.Fatalf("backward = %v", revs)
	}
	f, err := Last(r, int64(len(buf)))
	if err != nil {
		t.Fatal(err)
	}
	im, err := f.Images(r)
	if err != nil || len(im.Before) != 1 || string(im.Before[0].Element) != `{"id":"a","x":1}` || im.After[0].Version != 5 {
		t.Fatalf("images = %+v, %v", im, err)
	}
	if f.Entry.Name != "claude" || f.Entry.Created[0] != "a" {
		t.Fatalf("entry = %+v", f.Entry)
	}
}

func TestTornTailIsFoundByScan(t *testing.T) {
	buf := journalOf(t, 3)
	good := int64(len(buf))
	next, _ := Encode(entry(4), nil)
	for cut := 1; cut < len(next); cut += 7 {
		torn := append(bytes.Clone(buf), next[:cut]...)
		r := bytes.NewReader(torn)
		if _, err := Last(r, int64(len(torn))); !errors.Is(err, ErrBadFrame) {
			t.Fatalf("cut %d: Last = %v, want ErrBadFrame", cut, err)
		}
		end, n, err := Scan(r, int64(len(torn)), nil)
		if err != nil || end != good || n != 3 {
			t.Fatalf("cut %d: Scan = %d, %d, %v; want %d, 3", cut, end, n, err, good)
		}
	}
}

func TestFlippedByteIsBadFrame(t *testing.T) {
	buf := journalOf(t, 1)
	for i := range buf {
		b := bytes.Clone(buf)
		b[i] ^= 0x40
		r := bytes.NewReader(b)
		f, err := ReadAt(r, 0, int64(len(b)))
		if err == nil {
			// a flip in the blob is caught when the blob is read
			if _, err = f.Images(r); err == nil {
				t.Fatalf("flip at %d went unnoticed", i)
			}
		}
	}
}

// FuzzReadAt: whatever the bytes, reading a journal neither panics nor
// claims more than the file holds.
func FuzzReadAt(f *testing.F) {
	f.Add(journalOf(f, 2))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		end, _, err := Scan(r, int64(len(b)), nil)
		if err != nil || end > int64(len(b)) {
			t.Fatalf("Scan = %d, %v", end, err)
		}
		_ = Backward(r, end, func(f *Frame) bool { _, _ = f.Images(r); return true })
	})
}
