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
