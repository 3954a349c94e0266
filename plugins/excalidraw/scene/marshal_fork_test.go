package scene

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// A fork's Marshal, which writes shared elements as their sealed bytes,
// writes what a private copy writes whatever the edit moves (an element
// written longer, shorter or as long, one grown and a later one shrunk
// by as much, elements added, removed, reordered, a much larger output),
// and again after a second seal.
func TestForkMarshalIsTheCopysBytes(t *testing.T) {
	ids := func(d *Document) []string {
		var out []string
		for _, el := range d.Elements() {
			out = append(out, elementID(el))
		}
		return out
	}
	at := func(d *Document, k int) *ojson.Object { return d.Own(k) }
	edits := map[string]func(d *Document){
		"nothing": func(*Document) {},
		"as long": func(d *Document) { at(d, 10).Set("x", 98765) },
		"longer":  func(d *Document) { at(d, 10).Set("customData", ojson.New().Set("k", strings.Repeat("v", 300))) },
		"shorter": func(d *Document) { at(d, 10).Delete("roundness") },
		"first":   func(d *Document) { at(d, 0).Set("x", 1.5) },
		"last":    func(d *Document) { at(d, len(d.Elements())-1).Set("x", 1.5) },
		"grow, shrink": func(d *Document) {
			at(d, 5).Set("link", "abcdefgh")
			at(d, 9).Set("link", nil)
			at(d, 9).Delete("link")
		},
		"added": func(d *Document) {
			d.SetElements(append(d.Elements(), ojson.New().Set("id", "n1").Set("type", "rectangle")))
		},
		"removed": func(d *Document) {
			els := d.Elements()
			d.SetElements(append(els[:20:20], els[21:]...))
		},
		"swapped": func(d *Document) {
			els := d.Elements()
			els[3], els[30] = els[30], els[3]
			d.SetElements(els)
		},
		"outgrown": func(d *Document) {
			at(d, 1).Set("customData", ojson.New().Set("k", strings.Repeat("w", 200_000)))
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			d, _, _, _ := sealed(t, syntheticScene(t, 120))
			for round := range 2 {
				fork, clone := d.Fork(), d.Clone()
				edit(fork)
				edit(clone)
				if strings.Join(ids(fork), ",") != strings.Join(ids(clone), ",") {
					t.Fatal("the edit is not the same on both")
				}
				got, sp, err := fork.MarshalSplit()
				if err != nil {
					t.Fatal(err)
				}
				want, err := clone.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("round %d: the fork wrote other bytes than the copy", round)
				}
				fork.Seal(sp, Limits{})
				d = fork
			}
		})
	}
}
