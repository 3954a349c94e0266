package engine

import (
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// threeShapes are a labelled rectangle, an ellipse and a diamond, with an
// arrow from the first to the second.
var threeShapes = []string{
	`{"type":"rectangle","id":"a","x":0,"y":0,"width":160,"height":80,"label":{"text":"A"}}`,
	`{"type":"ellipse","id":"b","x":300,"y":0,"width":120,"height":80}`,
	`{"type":"diamond","id":"c","x":0,"y":300,"width":120,"height":120}`,
	`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b"}`,
}

func TestGroupAddsOutermostGroupWithLabels(t *testing.T) {
	s := newStored(t)
	before := s.create(threeShapes...)
	la := labelID(t, before, "a")
	var g string
	s.mustEdit(func(tx *Txn) (err error) { g, err = tx.Group([]string{la, "b"}, "/args"); return err })
	doc := s.doc()
	if len(g) != 21 {
		t.Fatalf("group id %q", g)
	}
	for _, id := range []string{"a", la, "b"} {
		if gs := groupsOf(t, doc, id); !slices.Equal(gs, []string{g}) {
			t.Errorf("%s groupIds %v", id, gs)
		}
	}
	if gs := groupsOf(t, doc, "c"); len(gs) != 0 {
		t.Errorf("c groupIds %v", gs)
	}
	bumpedOnce(t, before, doc, "a", la, "b")

	// Grouping with c takes the whole of g along, as its outer group.
	var outer string
	s.mustEdit(func(tx *Txn) (err error) { outer, err = tx.Group([]string{"a", "c"}, "/args"); return err })
	doc = s.doc()
	for id, want := range map[string][]string{"a": {g, outer}, la: {g, outer}, "b": {g, outer}, "c": {outer}} {
		if gs := groupsOf(t, doc, id); !slices.Equal(gs, want) {
			t.Errorf("%s groupIds %v, want %v", id, gs, want)
		}
	}

	// The members of an existing group are that group: nothing changes.
	before = doc
	var same string
	s.mustEdit(func(tx *Txn) (err error) { same, err = tx.Group([]string{"b", "a"}, "/args"); return err })
	if same != g {
		t.Errorf("regrouping a and b gave %q, want %q", same, g)
	}
	bumpedOnce(t, before, s.doc())

	// b was in g, which c is not in: g joins whole, and a, b, c are
	// exactly the outer group already.
	s.mustEdit(func(tx *Txn) (err error) { same, err = tx.Group([]string{"b", "c"}, "/args"); return err })
	if same != outer {
		t.Errorf("grouping b and c gave %q, want %q", same, outer)
	}

	// A part of a shared group nests inside it.
	s = newStored(t)
	s.create(threeShapes...)
	var all, inner string
	s.mustEdit(func(tx *Txn) (err error) {
		if all, err = tx.Group([]string{"a", "b", "c"}, ""); err != nil {
			return err
		}
		inner, err = tx.Group([]string{"b", "c"}, "")
		return err
	})
	doc = s.doc()
	for id, want := range map[string][]string{"a": {all}, "b": {inner, all}, "c": {inner, all}} {
		if gs := groupsOf(t, doc, id); !slices.Equal(gs, want) {
			t.Errorf("%s groupIds %v, want %v", id, gs, want)
		}
	}
}

// The members are drawn together below the topmost one; only they take
// new indices.
func TestGroupGathersMembersInZOrder(t *testing.T) {
	s := newStored(t)
	before := s.create(threeShapes...)
	la := labelID(t, before, "a")
	s.mustEdit(func(tx *Txn) error { _, err := tx.Group([]string{"a", "c"}, ""); return err })
	doc := s.doc()
	if got, want := liveIDs(doc), []string{"b", "a", la, "c", "ab"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	for _, id := range []string{"b", "c", "ab"} {
		if scene.StringOf(element(t, doc, id), "index") != scene.StringOf(element(t, before, id), "index") {
			t.Errorf("%s changed index", id)
		}
	}
}

func TestGroupAcrossFramesLeavesThem(t *testing.T) {
	s := newStored(t)
	s.create(threeShapes...)
	s.frame("F", nil, "c")
	s.mustEdit(func(tx *Txn) error { _, err := tx.Group([]string{"b", "c"}, ""); return err })
	if f := scene.StringOf(element(t, s.doc(), "c"), "frameId"); f != "" {
		t.Errorf("c still in frame %q", f)
	}
}

func TestGroupErrors(t *testing.T) {
	s := newStored(t)
	s.create(threeShapes...)
	frame := s.frame("", &Box{X: 1000, Y: 0, Width: 100, Height: 100})
	la := labelID(t, s.doc(), "a")
	for _, c := range []struct {
		ids     []string
		code    sceneerr.Code
		pointer string
	}{
		{[]string{"a", "nope"}, sceneerr.NotFound, "/args/ids/1"},
		{[]string{"a", la}, sceneerr.InvalidOperation, "/args/ids"},
		{[]string{}, sceneerr.InvalidOperation, "/args/ids"},
		{[]string{frame, "a"}, sceneerr.InvalidOperation, "/args/ids/0"},
	} {
		_, err := s.edit(func(tx *Txn) error { _, err := tx.Group(c.ids, "/args"); return err })
		wantErrAt(t, err, c.code, c.pointer)
	}
	_, err := s.edit(func(tx *Txn) error { _, err := tx.Ungroup("nope", "/args"); return err })
	wantErrAt(t, err, sceneerr.NotFound, "/args/group_id")
	_, err = s.edit(func(tx *Txn) error { _, _, err := tx.UngroupElements([]string{"a"}, "/args"); return err })
	wantErrAt(t, err, sceneerr.InvalidOperation, "/args/ids")
}

func TestUngroup(t *testing.T) {
	s := newStored(t)
	before := s.create(threeShapes...)
	la := labelID(t, before, "a")
	var inner, outer string
	s.mustEdit(func(tx *Txn) (err error) {
		if inner, err = tx.Group([]string{"a", "b"}, ""); err != nil {
			return err
		}
		outer, err = tx.Group([]string{"a", "c"}, "")
		return err
	})
	grouped := s.doc()
	bumpedOnce(t, before, grouped, "a", la, "b", "c")

	var members []string
	s.mustEdit(func(tx *Txn) (err error) { members, err = tx.Ungroup(inner, ""); return err })
	if !slices.Equal(members, []string{"a", "b"}) {
		t.Errorf("members %v", members)
	}
	doc := s.doc()
	for _, id := range []string{"a", la, "b", "c"} {
		if gs := groupsOf(t, doc, id); !slices.Equal(gs, []string{outer}) {
			t.Errorf("%s groupIds %v", id, gs)
		}
	}
	var groups []string
	s.mustEdit(func(tx *Txn) (err error) {
		groups, members, err = tx.UngroupElements([]string{la, "ab"}, "")
		return err
	})
	if !slices.Equal(groups, []string{outer}) || !slices.Equal(members, []string{"a", "b", "c"}) {
		t.Errorf("groups %v, members %v", groups, members)
	}
	for _, id := range []string{"a", la, "b", "c"} {
		if gs := groupsOf(t, s.doc(), id); len(gs) != 0 {
			t.Errorf("%s groupIds %v", id, gs)
		}
	}
}
