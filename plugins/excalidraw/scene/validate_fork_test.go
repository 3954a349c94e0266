package scene

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// A fork's validator reads the sealed base's records through instead of
// copying them; whatever the fork changed (owned, renamed, added,
// removed or swapped elements), each record and each member a check asks
// for is what reading the fork's own element gives.
func TestForkValidatorRecordsAreTheElements(t *testing.T) {
	edits := map[string]func(d *Document){
		"nothing": func(*Document) {},
		"owned":   func(d *Document) { d.Own(7).Set("id", "renamed").Set("type", "ellipse") },
		"added": func(d *Document) {
			d.SetElements(append(d.Elements(), ojson.New().Set("id", "n").Set("type", "text").Set("index", "zz")))
		},
		"removed": func(d *Document) { els := d.Elements(); d.SetElements(append(els[:3:3], els[4:]...)) },
		"swapped": func(d *Document) {
			els := d.Elements()
			els[2], els[70] = els[70], els[2]
			d.SetElements(els)
		},
		"not an object": func(d *Document) { els := d.Elements(); els[5] = nil; d.SetElements(els) },
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			d, _, _, _ := sealed(t, syntheticScene(t, 90))
			fork := d.Fork()
			edit(fork)
			v := newValidator(fork, Limits{}.Effective())
			if v.n != len(fork.Elements()) {
				t.Fatalf("n %d, want %d", v.n, len(fork.Elements()))
			}
			for i, el := range fork.Elements() {
				want, _ := readElement(i, el)
				got := v.at(i)
				got.visible = false
				if got != want {
					t.Fatalf("record %d: %+v, want %+v", i, got, want)
				}
				for _, k := range []string{"id", "type", "index"} {
					if el == nil {
						continue
					}
					g, gok := v.member(i, k)
					w, wok := el.Get(k)
					if g != w || gok != wok {
						t.Fatalf("element %d %s: %v %v, want %v %v", i, k, g, gok, w, wok)
					}
				}
			}
		})
	}
}
