package engine

import (
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestReorder(t *testing.T) {
	s := newStored(t)
	base := s.create(threeShapes...)
	la := labelID(t, base, "a")
	for _, c := range []struct {
		name, to, rel string
		ids, want     []string
		changed       []string // elements that take a new index
	}{
		{"front", ToFront, "", []string{"a"}, []string{"b", "c", "ab", "a", la}, []string{"a", la}},
		{"label stands for its container", ToFront, "", []string{la}, []string{"b", "c", "ab", "a", la}, []string{"a", la}},
		{"back", ToBack, "", []string{"c"}, []string{"c", "a", la, "b", "ab"}, []string{"c"}},
		{"forward", ToForward, "", []string{"b"}, []string{"a", la, "c", "b", "ab"}, []string{"b"}},
		{"backward past a container and its label", ToBackward, "", []string{"b"}, []string{"b", "a", la, "c", "ab"}, []string{"b"}},
		{"forward keeps the selection's order", ToForward, "", []string{"c", "a"}, []string{"b", "a", la, "ab", "c"}, []string{"a", la, "c"}},
		{"before", ToBefore, "a", []string{"ab"}, []string{"ab", "a", la, "b", "c"}, []string{"ab"}},
		{"after a container is above its label", ToAfter, "a", []string{"c"}, []string{"a", la, "c", "b", "ab"}, []string{"c"}},
		{"after its label", ToAfter, la, []string{"ab"}, []string{"a", la, "ab", "b", "c"}, []string{"ab"}},
		{"already at the front", ToFront, "", []string{"ab"}, []string{"a", la, "b", "c", "ab"}, nil},
		{"already at the back", ToBack, "", []string{"a"}, []string{"a", la, "b", "c", "ab"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStored(t)
			before := saveEdited(t, s, base)
			s.mustEdit(func(tx *Txn) error { return tx.Reorder(c.ids, c.to, c.rel, "/args") })
			doc := s.doc()
			if got := liveIDs(doc); !slices.Equal(got, c.want) {
				t.Fatalf("order %v, want %v", got, c.want)
			}
			var changed []string
			for _, id := range liveIDs(doc) {
				if scene.StringOf(element(t, doc, id), "index") != scene.StringOf(element(t, before, id), "index") {
					changed = append(changed, id)
				}
			}
			if !slices.Equal(changed, c.changed) {
				t.Errorf("new indices for %v, want %v", changed, c.changed)
			}
			bumpedOnce(t, before, doc, c.changed...)
		})
	}
}

// A group is one step, and a frame's children step and go to the ends
// within their frame, never below it.
func TestReorderGroupsAndFrames(t *testing.T) {
	s := newStored(t)
	doc := s.create(append(slices.Clone(threeShapes), `{"type":"rectangle","id":"d","x":600,"y":300,"width":100,"height":100}`)...)
	la := labelID(t, doc, "a")
	step := func(named []string, to, rel string, want ...string) {
		t.Helper()
		s.mustEdit(func(tx *Txn) error { return tx.Reorder(named, to, rel, "") })
		if got := liveIDs(s.doc()); !slices.Equal(got, want) {
			t.Fatalf("%s %v: order %v, want %v", to, named, got, want)
		}
	}
	s.mustEdit(func(tx *Txn) error { _, err := tx.Group([]string{"b", "c"}, ""); return err })
	step([]string{"a"}, ToForward, "", "b", "c", "a", la, "ab", "d")
	step([]string{"a"}, ToBackward, "", "a", la, "b", "c", "ab", "d")

	f := s.frame("F", nil, "a", "b")
	// b's group (b, c) joins whole, and ab with both its ends; the frame
	// goes below its lowest child.
	if got, want := liveIDs(s.doc()), []string{f, "a", la, "b", "c", "ab", "d"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	step([]string{"c"}, ToBack, "", f, "c", "a", la, "b", "ab", "d")
	step([]string{"c"}, ToBackward, "", f, "c", "a", la, "b", "ab", "d")
	step([]string{"a"}, ToFront, "", f, "c", "b", "ab", "a", la, "d")
	step([]string{"d"}, ToBack, "", "d", f, "c", "b", "ab", "a", la)
	step([]string{"d"}, ToForward, "", f, "c", "b", "ab", "a", la, "d")
	step([]string{f}, ToFront, "", "d", f, "c", "b", "ab", "a", la)

	_, err := s.edit(func(tx *Txn) error { return tx.Reorder([]string{"c"}, ToBefore, f, "/args") })
	wantErrAt(t, err, sceneerr.InvalidOperation, "/args/relative_to")
}

func TestReorderErrors(t *testing.T) {
	s := newStored(t)
	doc := s.create(threeShapes...)
	la := labelID(t, doc, "a")
	for _, c := range []struct {
		ids     []string
		to, rel string
		code    sceneerr.Code
		pointer string
	}{
		{[]string{"a"}, "top", "", sceneerr.InvalidOperation, "/args/to"},
		{[]string{"a"}, ToBefore, "", sceneerr.InvalidOperation, "/args/relative_to"},
		{[]string{"a"}, ToFront, "b", sceneerr.InvalidOperation, "/args/relative_to"},
		{[]string{"a"}, ToAfter, la, sceneerr.InvalidOperation, "/args/relative_to"},
		{[]string{"a"}, ToAfter, "nope", sceneerr.NotFound, "/args/relative_to"},
		{[]string{"b", "nope"}, ToFront, "", sceneerr.NotFound, "/args/ids/1"},
		{nil, ToFront, "", sceneerr.InvalidOperation, "/args/ids"},
	} {
		_, err := s.edit(func(tx *Txn) error { return tx.Reorder(c.ids, c.to, c.rel, "/args") })
		wantErrAt(t, err, c.code, c.pointer)
	}
}

// Keys are kept where they fit; a scene whose indices are out of order
// still ends up strictly increasing.
func TestOrderKeys(t *testing.T) {
	for _, c := range []struct {
		keys  []string
		fixed []bool
		kept  []int
	}{
		{[]string{"a0", "a5", "a1", "a2", "a3"}, []bool{true, false, false, false, true}, []int{0, 2, 3, 4}},
		{[]string{"a0", "a1", "a2"}, []bool{true, false, true}, []int{0, 1, 2}},
		{[]string{"a0", "", "a2"}, []bool{true, false, true}, []int{0, 2}},
		{[]string{"a3", "a1", "a2"}, []bool{true, false, true}, []int{0}},                // fixed out of order
		{[]string{"x", "a1", "", "a0"}, []bool{true, true, false, true}, []int{1}},       // an invalid fixed key
		{[]string{"a1", "a1", "a1"}, []bool{true, true, true}, []int{0}},                 // repeated
		{[]string{"a2", "a1", "a0", "Zz"}, []bool{false, false, false, false}, []int{3}}, // all moved
	} {
		got := orderKeys(c.keys, c.fixed)
		if bad := findex.CheckOrder(got); len(bad) > 0 {
			t.Errorf("%v: keys %v out of order at %v", c.keys, got, bad)
		}
		var kept []int
		for i := range got {
			if got[i] == c.keys[i] {
				kept = append(kept, i)
			}
		}
		if !slices.Equal(kept, c.kept) {
			t.Errorf("%v %v: kept %v (%v), want %v", c.keys, c.fixed, kept, got, c.kept)
		}
	}
}
