package scene

import (
	"maps"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// entries is an IDMap's content as a map.
func entries(m *IDMap) map[string]*ojson.Object {
	out := map[string]*ojson.Object{}
	for id, el := range m.All() {
		if _, dup := out[id]; dup {
			panic("All yielded " + id + " twice")
		}
		out[id] = el
	}
	return out
}

// A fork's IDMap, read through the sealed base's index, holds what a
// scan's IDIndex holds, after owning, renaming, adding (a duplicate id
// among them, which keeps the first) and deleting; its own Set and
// Delete leave the base's index as it was.
func TestForkIDMapIsTheScannedIndex(t *testing.T) {
	d, _, _, _ := sealed(t, syntheticScene(t, 60))
	baseIdx := maps.Clone(d.ByID())
	if got := entries(d.IDMap()); !maps.Equal(got, baseIdx) {
		t.Fatalf("sealed IDMap differs from its index: %d vs %d entries", len(got), len(baseIdx))
	}
	fork := d.Fork()
	own(fork, "r2").Set("x", 1)
	own(fork, "r4").Set("id", "renamed")
	own(fork, "a3").Set("isDeleted", true)
	fork.SetElements(append(fork.Elements(), ojson.New().Set("id", "new"), ojson.New().Set("id", "r0"), ojson.New().Set("id", "r4")))
	m := fork.IDMap()
	want := fork.IDIndex()
	if got := entries(m); !maps.Equal(got, want) {
		t.Fatalf("fork IDMap differs from the scan: %d vs %d entries", len(got), len(want))
	}
	for id, el := range want {
		if m.Get(id) != el {
			t.Fatalf("Get(%q) is not the scan's", id)
		}
	}
	if m.Get("nothing") != nil {
		t.Fatal("Get of a missing id")
	}
	m.Delete("r1")
	m.Set("extra", want["r2"])
	m.Delete("never-there")
	if _, ok := m.Lookup("r1"); ok || m.Get("extra") != want["r2"] || len(entries(m)) != len(want) {
		t.Fatal("Set and Delete not seen")
	}
	if !maps.Equal(d.ByID(), baseIdx) {
		t.Fatal("a fork's IDMap changed the base's index")
	}
}

// LastIndex is the greatest valid index a scan finds, on a sealed
// document, on a fork that adds after it or owns and changes the element
// holding it, and on a sealed fork (which inherits its base's).
func TestLastIndexIsTheScannedOne(t *testing.T) {
	scan := func(d *Document) string { k, _ := lastIndexOf(d.Elements()); return k }
	d, _, _, _ := sealed(t, syntheticScene(t, 60))
	if d.LastIndex() != scan(d) || d.LastIndex() == "" {
		t.Fatalf("sealed: %q, scan %q", d.LastIndex(), scan(d))
	}
	last := d.Elements()[len(d.Elements())-1]
	lastID := elementID(last)
	cases := map[string]func(*Document){
		"unchanged": func(*Document) {},
		"added after": func(f *Document) {
			f.SetElements(append(f.Elements(), ojson.New().Set("id", "n").Set("type", "rectangle").Set("index", scan(f)+"V")))
		},
		"added with a bad index": func(f *Document) {
			f.SetElements(append(f.Elements(), ojson.New().Set("id", "n").Set("type", "rectangle").Set("index", "zzzz!")))
		},
		"greatest lowered": func(f *Document) { own(f, lastID).Set("index", "a0") },
		"greatest removed": func(f *Document) { f.SetElements(f.Elements()[:len(f.Elements())-1]) },
		"other raised":     func(f *Document) { own(f, "r1").Set("index", scan(f)+"V") },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			fork := d.Fork()
			edit(fork)
			if got, want := fork.LastIndex(), scan(fork); got != want {
				t.Fatalf("fork: %q, scan %q", got, want)
			}
			_, sp, err := Codec{}.EncodeSplit(fork)
			if err != nil {
				t.Fatal(err)
			}
			fork.Seal(sp, Limits{})
			if got, want := fork.LastIndex(), scan(fork); got != want {
				t.Fatalf("sealed fork: %q, scan %q", got, want)
			}
			next := fork.Fork()
			next.SetElements(append(next.Elements(), ojson.New().Set("id", "m").Set("type", "rectangle")))
			if got, want := next.LastIndex(), scan(next); got != want {
				t.Fatalf("fork of the sealed fork: %q, scan %q", got, want)
			}
		})
	}
}
