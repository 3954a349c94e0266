package engine

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// frameKeys are the members of a frame Excalidraw 0.18.1 makes
// (newFrameElement: newElement's, then name), in its order.
var frameKeys = []string{"id", "type", "x", "y", "width", "height", "angle", "strokeColor", "backgroundColor",
	"fillStyle", "strokeWidth", "strokeStyle", "roughness", "opacity", "groupIds", "frameId", "index", "roundness",
	"seed", "version", "versionNonce", "isDeleted", "boundElements", "updated", "link", "locked", "name"}

func TestCreateFrameAroundChildren(t *testing.T) {
	s := newStored(t)
	before := s.create(threeShapes...)
	la := labelID(t, before, "a")
	var f string
	var res Result
	s.mustEdit(func(tx *Txn) (err error) {
		f, err = tx.CreateFrame("Flow", nil, []string{"a", "b"}, 0, "/args")
		res = tx.Result()
		return err
	})
	doc := s.doc()
	frame := element(t, doc, f)
	if !slices.Equal(frame.Keys(), frameKeys) {
		t.Errorf("frame members %v", frame.Keys())
	}
	if scene.StringOf(frame, "type") != "frame" || scene.StringOf(frame, "name") != "Flow" || scene.StringOf(frame, "strokeColor") != "#bbb" ||
		scene.NumberOf(frame, "roughness") != 0 || !frame.IsNull("roundness") || scene.NumberOf(frame, "version") != 1 || !frame.IsNull("frameId") {
		t.Errorf("frame %v", frame)
	}
	if res.Added != 1 || res.IDs[0] != f {
		t.Errorf("result %+v", res)
	}
	// The children (a with its label, b, and ab bound to both) plus the
	// padding; the frame goes right below a.
	around, _ := query.Bounds([]*ojson.Object{element(t, doc, "a"), element(t, doc, "b"), element(t, doc, "ab")})
	got := boxOfID(t, doc, f)
	if math.Abs(got.X-(around.X-20)) > 1e-9 || math.Abs(got.Width-(around.Width+40)) > 1e-9 || math.Abs(got.Height-(around.Height+40)) > 1e-9 {
		t.Errorf("frame box %+v around %+v", got, around)
	}
	if got, want := liveIDs(doc), []string{f, "a", la, "b", "c", "ab"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	for _, id := range []string{"a", la, "b", "ab"} {
		if scene.StringOf(element(t, doc, id), "frameId") != f {
			t.Errorf("%s not in the frame", id)
		}
	}
	if scene.StringOf(element(t, doc, "c"), "frameId") != "" {
		t.Error("c in the frame")
	}
	bumpedOnce(t, before, doc, "a", la, "b", "ab")

	empty := s.frame("", &Box{X: 900, Y: 900, Width: 300, Height: 200})
	doc = s.doc()
	if e := element(t, doc, empty); !e.IsNull("name") || scene.NumberOf(e, "x") != 900 || scene.NumberOf(e, "width") != 300 || liveIDs(doc)[len(liveIDs(doc))-1] != empty {
		t.Errorf("empty frame %v (order %v)", e, liveIDs(doc))
	}
}

func TestFrameAddAndRemove(t *testing.T) {
	s := newStored(t)
	before := s.create(threeShapes...)
	la := labelID(t, before, "a")
	f := s.frame("F", &Box{X: -50, Y: -50, Width: 600, Height: 600})
	framed := s.doc()
	// a is below the frame: the frame goes down below it; ab joins once
	// both its ends are in.
	s.mustEdit(func(tx *Txn) error { return tx.FrameAdd(f, []string{la}, "/args") })
	doc := s.doc()
	if got, want := liveIDs(doc), []string{f, "a", la, "b", "c", "ab"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if scene.StringOf(element(t, doc, "ab"), "frameId") != "" {
		t.Error("ab joined with one end in the frame")
	}
	bumpedOnce(t, framed, doc, f, "a", la)
	s.mustEdit(func(tx *Txn) error { return tx.FrameAdd(f, []string{"b", "a"}, "/args") })
	doc = s.doc()
	if scene.StringOf(element(t, doc, "ab"), "frameId") != f || scene.StringOf(element(t, doc, "b"), "frameId") != f {
		t.Error("b and ab not in the frame")
	}

	// Another frame refuses them; taking them out first moves them, one
	// version step each.
	g := s.frame("G", &Box{X: 2000, Y: 0, Width: 100, Height: 100})
	_, err := s.edit(func(tx *Txn) error { return tx.FrameAdd(g, []string{"c", "b"}, "/args") })
	wantErrAt(t, err, sceneerr.InvalidOperation, "/args/ids/1")
	before = s.doc()
	s.mustEdit(func(tx *Txn) error {
		if err := tx.FrameRemove([]string{"b"}, ""); err != nil {
			return err
		}
		return tx.FrameAdd(g, []string{"b"}, "")
	})
	doc = s.doc()
	if scene.StringOf(element(t, doc, "b"), "frameId") != g || scene.StringOf(element(t, doc, "ab"), "frameId") != "" {
		t.Errorf("b in %q, ab in %q", scene.StringOf(element(t, doc, "b"), "frameId"), scene.StringOf(element(t, doc, "ab"), "frameId"))
	}
	bumpedOnce(t, before, doc, "b", "ab", g)

	// Removing a container takes its label; elements in no frame pass.
	s.mustEdit(func(tx *Txn) error { return tx.FrameRemove([]string{"a", "c"}, "") })
	doc = s.doc()
	for _, id := range []string{"a", la} {
		if scene.StringOf(element(t, doc, id), "frameId") != "" {
			t.Errorf("%s still in a frame", id)
		}
	}
}

func TestFrameErrors(t *testing.T) {
	s := newStored(t)
	s.create(threeShapes...)
	f := s.frame("F", nil, "c")
	for _, c := range []struct {
		name    string
		edit    func(tx *Txn) error
		code    sceneerr.Code
		pointer string
	}{
		{"no box, no children", func(tx *Txn) error { _, err := tx.CreateFrame("x", nil, nil, 0, "/args"); return err },
			sceneerr.InvalidOperation, "/args"},
		{"flat box", func(tx *Txn) error {
			_, err := tx.CreateFrame("x", &Box{Width: 10}, nil, 0, "/args")
			return err
		}, sceneerr.InvalidOperation, "/args/box"},
		{"negative padding", func(tx *Txn) error { _, err := tx.CreateFrame("x", nil, []string{"a"}, -1, "/args"); return err },
			sceneerr.InvalidOperation, "/args/padding"},
		{"long name", func(tx *Txn) error {
			_, err := tx.CreateFrame(strings.Repeat("n", 257), nil, []string{"a"}, 0, "/args")
			return err
		}, sceneerr.InvalidOperation, "/args/frame_name"},
		{"missing child", func(tx *Txn) error { _, err := tx.CreateFrame("x", nil, []string{"a", "zz"}, 0, "/args"); return err },
			sceneerr.NotFound, "/args/ids/1"},
		{"child of another frame", func(tx *Txn) error { _, err := tx.CreateFrame("x", nil, []string{"a", "c"}, 0, "/args"); return err },
			sceneerr.InvalidOperation, "/args/ids/1"},
		{"frame into a frame", func(tx *Txn) error { _, err := tx.CreateFrame("x", nil, []string{f}, 0, "/args"); return err },
			sceneerr.InvalidOperation, "/args/ids/0"},
		{"missing frame", func(tx *Txn) error { return tx.FrameAdd("zz", []string{"a"}, "/args") },
			sceneerr.NotFound, "/args/frame_id"},
		{"not a frame", func(tx *Txn) error { return tx.FrameAdd("b", []string{"a"}, "/args") },
			sceneerr.InvalidOperation, "/args/frame_id"},
		{"nothing to add", func(tx *Txn) error { return tx.FrameAdd(f, nil, "/args") },
			sceneerr.InvalidOperation, "/args/ids"},
		{"remove a frame", func(tx *Txn) error { return tx.FrameRemove([]string{"a", f}, "/args") },
			sceneerr.InvalidOperation, "/args/ids/1"},
		{"remove a missing one", func(tx *Txn) error { return tx.FrameRemove([]string{"zz"}, "/args") },
			sceneerr.NotFound, "/args/ids/0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.edit(c.edit)
			wantErrAt(t, err, c.code, c.pointer)
		})
	}
}
