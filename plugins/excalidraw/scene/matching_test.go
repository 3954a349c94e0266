package scene

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Matching answers as a scan of the elements does on a sealed document,
// on its forks and on a chain of documents each sealed from a fork of
// the last (which carry the answer on): whatever the forks own, change,
// add, remove or swap.
func TestMatchingIsTheScan(t *testing.T) {
	marked := func(el *ojson.Object) bool { return el != nil && StringOf(el, "link") == "m" }
	type key struct{}
	r := rand.New(rand.NewPCG(5, 6))
	d, _, _, _ := sealed(t, syntheticScene(t, 80))
	for step := range 40 {
		fork := d.Fork()
		n := len(fork.Elements())
		switch r.IntN(5) {
		case 0:
			fork.Own(r.IntN(n)).Set("link", "m")
		case 1:
			fork.Own(r.IntN(n)).Set("link", nil)
		case 2:
			fork.SetElements(append(fork.Elements(), ojson.New().Set("id", "n"+string(rune('a'+step))).Set("type", "rectangle").Set("link", "m")))
		case 3:
			els := fork.Elements()
			i := r.IntN(n)
			fork.SetElements(append(els[:i:i], els[i+1:]...))
		case 4:
			els := fork.Elements()
			i, j := r.IntN(n), r.IntN(n)
			els[i], els[j] = els[j], els[i]
			fork.SetElements(els)
		}
		if got, want := fork.Matching(key{}, marked), matchAll(fork.Elements(), marked); !slices.Equal(got, want) {
			t.Fatalf("step %d, fork: %v, scan %v", step, got, want)
		}
		_, sp, err := Codec{}.EncodeSplit(fork)
		if err != nil {
			t.Fatal(err)
		}
		fork.Seal(sp, Limits{})
		if got, want := fork.Matching(key{}, marked), matchAll(fork.Elements(), marked); !slices.Equal(got, want) {
			t.Fatalf("step %d, sealed: %v, scan %v", step, got, want)
		}
		d = fork
	}
	if len(matchAll(d.Elements(), marked)) == 0 {
		t.Fatal("the walk marked nothing: it tests nothing")
	}
}

// A chain of documents each sealed from a fork of the last inherits its
// id index as the base's and a map of the changes, made one map again
// past maxChain: at every seal, each id's position is the scan's, and an
// id no element has any more is not found.
func TestInheritedIDIndexIsTheScan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	d, _, _, _ := sealed(t, syntheticScene(t, 60))
	gone := map[string]bool{}
	for step := range 3 * maxChain {
		fork := d.Fork()
		n := len(fork.Elements())
		switch r.IntN(3) {
		case 0:
			el := fork.Own(r.IntN(n))
			gone[elementID(el)] = true
			el.Set("id", "renamed"+string(rune('A'+step)))
		case 1:
			fork.SetElements(append(fork.Elements(), ojson.New().Set("id", "n"+string(rune('A'+step))).Set("type", "rectangle")))
		case 2:
			fork.Own(r.IntN(n)).Set("x", float64(step))
		}
		_, sp, err := Codec{}.EncodeSplit(fork)
		if err != nil {
			t.Fatal(err)
		}
		fork.Seal(sp, Limits{})
		fresh := (&encoding{info: fork.enc.info}).positions()
		for id, want := range fresh {
			delete(gone, id)
			if got, ok := fork.enc.pos(id); !ok || got != want {
				t.Fatalf("step %d: %q at %d %v, want %d", step, id, got, ok, want)
			}
		}
		for id := range gone {
			if j, ok := fork.enc.pos(id); ok {
				t.Fatalf("step %d: %q, which no element has, found at %d", step, id, j)
			}
		}
		if got := fork.enc.positions(); len(got) != len(fresh) {
			t.Fatalf("step %d: %d ids listed, want %d", step, len(got), len(fresh))
		}
		if fork.enc.chain.depth > maxChain {
			t.Fatalf("step %d: a chain of %d", step, fork.enc.chain.depth)
		}
		d = fork
	}
}
