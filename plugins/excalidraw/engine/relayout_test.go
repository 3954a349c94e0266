package engine

import (
	"math"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// saveEdited stores doc as the editor would and returns the stored
// result.
func saveEdited(t *testing.T, s *stored, doc *scene.Document) *scene.Document {
	t.Helper()
	data, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return s.save(data)
}

// nudge moves an element by (dx, dy) in place.
func nudge(el *ojson.Object, dx, dy float64) {
	el.Set("x", scene.NumberOf(el, "x")+dx)
	el.Set("y", scene.NumberOf(el, "y")+dy)
}

// editorLabels is a scene as the editor leaves it: a labelled rectangle,
// an ellipse, a labelled arrow bound to both and a free labelled arrow,
// whose labels sit a few pixels off where dsh would centre them (the
// editor measures with the browser's fonts, and people drag), as the
// editor saved it after its creation.
func editorLabels(t *testing.T, s *stored) *scene.Document {
	t.Helper()
	s.create(
		`{"type":"rectangle","id":"r","x":0,"y":0,"width":200,"height":100,"label":{"text":"Hello world"}}`,
		`{"type":"ellipse","id":"e","x":400,"y":0,"width":160,"height":100}`,
		`{"type":"arrow","id":"re","startElementId":"r","endElementId":"e","label":{"text":"flows"}}`,
		`{"type":"arrow","id":"u","x":0,"y":300,"points":[[0,0],[100,60],[300,60]],"label":{"text":"free"}}`)
	doc := s.doc()
	nudge(element(t, doc, labelID(t, doc, "r")), 3, -2)
	nudge(element(t, doc, labelID(t, doc, "re")), 10, 2.3)
	nudge(element(t, doc, labelID(t, doc, "u")), -4, 1.5)
	return saveEdited(t, s, doc)
}

// changedKeys lists the members of a and b that differ.
func changedKeys(a, b *ojson.Object) []string {
	var out []string
	for _, k := range a.Keys() {
		va, _ := a.Get(k)
		vb, ok := b.Get(k)
		if !ok || !ojson.Equal(va, vb, true) {
			out = append(out, k)
		}
	}
	for _, k := range b.Keys() {
		if !a.Has(k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// within reports whether every key is one of allowed.
func within(keys, allowed []string) bool {
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			return false
		}
	}
	return true
}

// A patch of fields that cannot change layout (colours, stroke and fill
// style, roughness, opacity, link, lock) leaves every label where the
// editor put it: the patched element changes in the patched fields and
// its version, and nothing else in the scene changes at all.
func TestStyleOnlyUpdateLeavesLabelsAlone(t *testing.T) {
	cases := []struct{ id, patch string }{
		{"r", `{"opacity":40}`},
		{"r", `{"strokeColor":"#e03131"}`},
		{"r", `{"backgroundColor":"#ffc9c9","fillStyle":"solid","strokeStyle":"dashed","roughness":2}`},
		{"r", `{"link":"https://example.com","locked":true}`},
		{"re", `{"opacity":40}`},
		{"re", `{"strokeColor":"#1971c2","endArrowhead":"triangle"}`},
		{"u", `{"opacity":40,"strokeStyle":"dotted"}`},
	}
	for _, c := range cases {
		t.Run(c.id+c.patch, func(t *testing.T) {
			s := newStored(t)
			before := editorLabels(t, s)
			if _, err := s.apply(
				`{"op":"update","id":"` + c.id + `","patch":` + c.patch + `}`); err != nil {
				t.Fatal(err)
			}
			after := s.doc()
			patched, _ := decodeObject([]byte(c.patch), "")
			allowed := append(slices.Clone(patched.Keys()), versionFields...)
			for _, was := range before.Elements() {
				id := scene.StringOf(was, "id")
				got := changedKeys(was, element(t, after, id))
				if id != c.id {
					if len(got) > 0 {
						t.Errorf("%s changed in %v", id, got)
					}
					continue
				}
				if !within(got, allowed) || !slices.Contains(got, "version") {
					t.Errorf("%s changed in %v, want a version step and only %v", id, got, allowed)
				}
			}
		})
	}
}

// Moving a container (x/y only) moves its label by the same amount,
// wherever the label sat; it does not re-centre it. The same holds for a
// labelled arrow.
func TestMoveTakesLabelAlong(t *testing.T) {
	for _, c := range []struct {
		id     string
		dx, dy float64
		patch  string
	}{
		{"r", 40, 0, `{"x":40}`},
		{"r", -15, 70, `{"x":-15,"y":70}`},
		{"u", 25, -30, `{"x":25,"y":270}`},
	} {
		t.Run(c.id+c.patch, func(t *testing.T) {
			s := newStored(t)
			before := editorLabels(t, s)
			lid := labelID(t, before, c.id)
			lb := element(t, before, lid)
			if _, err := s.apply(
				`{"op":"update","id":"` + c.id + `","patch":` + c.patch + `}`); err != nil {
				t.Fatal(err)
			}
			la := element(t, s.doc(), lid)
			if dx, dy := scene.NumberOf(la, "x")-scene.NumberOf(lb, "x"), scene.NumberOf(la, "y")-scene.NumberOf(lb, "y"); math.Abs(dx-c.dx) > 1e-9 || math.Abs(dy-c.dy) > 1e-9 {
				t.Errorf("label moved by (%v, %v), want (%v, %v)", dx, dy, c.dx, c.dy)
			}
			if got := changedKeys(lb, la); !within(got, append([]string{"x", "y"}, versionFields...)) {
				t.Errorf("label changed in %v", got)
			}
		})
	}
}

// Patching a text field to the value it has lays nothing out again.
func TestSameTextValuesLayNothingOut(t *testing.T) {
	s := newStored(t)
	before := editorLabels(t, s)
	if _, err := s.apply(
		`{"op":"update","id":"r","patch":{"text":"Hello world","fontSize":20,"textAlign":"center"}}`,
		`{"op":"update","id":"re","patch":{"verticalAlign":"middle"}}`); err != nil {
		t.Fatal(err)
	}
	after := s.doc()
	for _, was := range before.Elements() {
		if got := changedKeys(was, element(t, after, scene.StringOf(was, "id"))); len(got) > 0 {
			t.Errorf("%s changed in %v", scene.StringOf(was, "id"), got)
		}
	}
}
