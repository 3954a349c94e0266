package pgstore

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

// edited is doc with k random edits (an element changed, added, removed
// or moved, bytes cut or inserted anywhere), from r.
func edited(r *rand.Rand, doc []byte, k int) []byte {
	out := bytes.Clone(doc)
	for range k {
		if len(out) == 0 {
			return []byte("x")
		}
		i, j := r.IntN(len(out)), r.IntN(len(out))
		i, j = min(i, j), max(i, j)
		j = min(j, i+200)
		switch r.IntN(4) {
		case 0: // replace a span
			out = append(out[:i:i], append([]byte(fmt.Sprintf(`{"id":"n%d"}`, r.Int())), out[j:]...)...)
		case 1: // delete a span
			out = append(out[:i:i], out[j:]...)
		case 2: // move a span elsewhere
			span := bytes.Clone(out[i:j])
			rest := append(out[:i:i], out[j:]...)
			at := r.IntN(len(rest) + 1)
			out = append(rest[:at:at], append(span, rest[at:]...)...)
		default: // change one byte
			out[i] ^= byte(1 + r.IntN(255))
		}
	}
	return out
}

// A delta rebuilds its target exactly, whatever the edits.
func TestDeltaRebuildsExactly(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	base := storetest.Doc(300, "a")
	for n := range 400 {
		target := edited(r, base, n%12)
		d := diff(base, target)
		got, err := apply(base, d)
		if err != nil || !bytes.Equal(got, target) {
			t.Fatalf("edit %d: %v; rebuilt %d bytes, want %d", n, err, len(got), len(target))
		}
		if n%3 == 0 {
			base = target // chains of edits
		}
	}
	for _, c := range [][2][]byte{{nil, nil}, {nil, []byte("{}")}, {[]byte("{}"), nil}, {[]byte("}}}}}}}}}}"), []byte("}}}}}}}}}}}}}}")}} {
		got, err := apply(c[0], diff(c[0], c[1]))
		if err != nil || !bytes.Equal(got, c[1]) {
			t.Fatalf("%q to %q: %q, %v", c[0], c[1], got, err)
		}
	}
}

// A one-element change is a delta of about that element's size, however
// large the document, wherever the element is; so is an element moved
// to the end.
func TestDeltaIsTheChange(t *testing.T) {
	const n = 2000
	els := make([]string, n)
	for i := range els {
		els[i] = storetest.El(fmt.Sprintf("e%d", i), i*10, "a")
	}
	base := storetest.DocOf(els...)
	for _, at := range []int{0, 1, n / 2, n - 1} {
		changed := append([]string(nil), els...)
		changed[at] = storetest.El(fmt.Sprintf("e%d", at), 123456, "changed")
		d := diff(base, storetest.DocOf(changed...))
		if len(d) > 2*len(changed[at])+32 {
			t.Errorf("element %d changed: a delta of %d bytes for a %d-byte element in %d", at, len(d), len(changed[at]), len(base))
		}
	}
	moved := append(append(append([]string(nil), els[:10]...), els[11:]...), els[10])
	if d := diff(base, storetest.DocOf(moved...)); len(d) > 3*len(els[10]) {
		t.Errorf("an element moved to the end: a delta of %d bytes", len(d))
	}
}

// apply refuses what is not a delta of its base (its CRC-32C tells a
// base that is not the one), never panics.
func TestDeltaRefusesGarbage(t *testing.T) {
	base := storetest.Doc(10, "a")
	good := diff(base, storetest.Doc(10, "b"))
	for _, d := range [][]byte{nil, []byte("{}"), good[:len(good)-1], append(bytes.Clone(good), 0), []byte(deltaMagic + "\x05\x0a\xff\xff\xff\xff\x0f")} {
		if _, err := apply(base, d); err == nil {
			t.Errorf("%q applied", d)
		}
	}
	if _, err := apply(base[:len(base)/2], good); err == nil {
		t.Error("applied to a shorter base")
	}
	other := bytes.Clone(base)
	other[3] ^= 1 // in the head the delta copies
	if _, err := apply(other, good); err == nil {
		t.Error("applied to another base of the same size: other bytes than the delta was made for")
	}
}

func FuzzDelta(f *testing.F) {
	f.Add([]byte(`{"elements":[{"id":"a"},{"id":"b"}]}`), []byte(`{"elements":[{"id":"b"},{"id":"a","x":1}]}`))
	f.Add([]byte("}}}}}}}}}}}}"), []byte("}}}}x}}}}}}}}}"))
	f.Fuzz(func(t *testing.T, base, target []byte) {
		got, err := apply(base, diff(base, target))
		if err != nil || !bytes.Equal(got, target) {
			t.Fatalf("rebuilt %q, %v; want %q", got, err, target)
		}
		_, _ = apply(base, target) // garbage: an error, no panic
	})
}
