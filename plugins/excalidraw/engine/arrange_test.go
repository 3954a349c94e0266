package engine

import (
	"math"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// arranged runs Arrange on the stored scene and returns the result.
func arranged(t *testing.T, s *stored, ids []string, a Arrangement) *scene.Document {
	t.Helper()
	s.mustEdit(func(tx *Txn) error { return tx.Arrange(ids, a, "/args") })
	return s.doc()
}

// wantAt fails unless id's box (rotation included) starts at x, y.
func wantAt(t *testing.T, doc *scene.Document, id string, x, y float64) {
	t.Helper()
	b := boxOfID(t, doc, id)
	if math.Abs(b.X-x) > 1e-6 || math.Abs(b.Y-y) > 1e-6 {
		t.Errorf("%s at (%g, %g), want (%g, %g)", id, b.X, b.Y, x, y)
	}
}

// checkArrowFollows fails unless arrow ab's ends sit on a's and b's
// outlines, still bound to them, and a's label is inside a.
func checkArrowFollows(t *testing.T, doc *scene.Document) {
	t.Helper()
	a, b, ab := element(t, doc, "a"), element(t, doc, "b"), element(t, doc, "ab")
	pts := globalPoints(ab)
	checkOnOutline(t, "start", pts[0], a)
	checkOnOutline(t, "end", pts[len(pts)-1], b)
	if bindingTarget(ab, "startBinding") != "a" || bindingTarget(ab, "endBinding") != "b" {
		t.Errorf("ab bound to %q and %q", bindingTarget(ab, "startBinding"), bindingTarget(ab, "endBinding"))
	}
	l := element(t, doc, labelID(t, doc, "a"))
	if scene.NumberOf(l, "x") < scene.NumberOf(a, "x") || scene.NumberOf(l, "x")+scene.NumberOf(l, "width") > scene.NumberOf(a, "x")+scene.NumberOf(a, "width") {
		t.Errorf("label at x %g outside a at %g", scene.NumberOf(l, "x"), scene.NumberOf(a, "x"))
	}
}

func TestArrangeLayouts(t *testing.T) {
	for _, c := range []struct {
		name string
		a    Arrangement
		want map[string][2]float64
	}{
		// a 160×80, b 120×80, c 120×120; the selection starts at (0, 0).
		{"row", Arrangement{Layout: "row"}, map[string][2]float64{"a": {0, 20}, "b": {200, 20}, "c": {360, 0}}},
		{"row top", Arrangement{Layout: "row", Align: "top", Gap: 10}, map[string][2]float64{"a": {0, 0}, "b": {170, 0}, "c": {300, 0}}},
		{"column", Arrangement{Layout: "column", Origin: &Point{100, 50}},
			map[string][2]float64{"a": {100, 50}, "b": {120, 170}, "c": {120, 290}}},
		{"column right", Arrangement{Layout: "column", Align: "right"}, map[string][2]float64{"a": {0, 0}, "b": {40, 120}, "c": {40, 240}}},
		{"grid", Arrangement{Layout: "grid"}, map[string][2]float64{"a": {0, 0}, "b": {200, 0}, "c": {20, 120}}},
		{"grid left", Arrangement{Layout: "grid", Columns: 3, Align: "left"}, map[string][2]float64{"a": {0, 20}, "b": {200, 20}, "c": {360, 0}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStored(t)
			before := s.create(threeShapes...)
			doc := arranged(t, s, []string{"a", "ab", labelID(t, before, "a"), "b", "c"}, c.a)
			for id, at := range c.want {
				wantAt(t, doc, id, at[0], at[1])
			}
			checkArrowFollows(t, doc)
		})
	}
}

func TestArrangeAlignAndDistribute(t *testing.T) {
	s := newStored(t)
	s.create(
		`{"type":"rectangle","id":"p","x":0,"y":0,"width":100,"height":50}`,
		`{"type":"rectangle","id":"q","x":150,"y":30,"width":50,"height":50}`,
		`{"type":"rectangle","id":"r","x":500,"y":10,"width":100,"height":100}`)
	for _, c := range []struct {
		ids  []string
		a    Arrangement
		want map[string][2]float64
	}{
		{[]string{"p", "q", "r"}, Arrangement{Align: "bottom"}, map[string][2]float64{"p": {0, 60}, "q": {150, 60}, "r": {500, 10}}},
		// Spread over 0..600, 250 of it boxes: 175 between each.
		{[]string{"r", "q", "p"}, Arrangement{Distribute: "horizontal"}, map[string][2]float64{"p": {0, 60}, "q": {275, 60}, "r": {500, 10}}},
		{[]string{"p", "q", "r"}, Arrangement{Distribute: "horizontal", Gap: 10, Align: "top"},
			map[string][2]float64{"p": {0, 10}, "q": {110, 10}, "r": {170, 10}}},
		{[]string{"p", "q", "r"}, Arrangement{Align: "center"}, map[string][2]float64{"p": {85, 10}, "q": {110, 10}, "r": {85, 10}}},
	} {
		doc := arranged(t, s, c.ids, c.a)
		for id, at := range c.want {
			wantAt(t, doc, id, at[0], at[1])
		}
	}
}

// A group is placed as one block, a frame takes its children along, and
// a rotated shape is placed by the box it is drawn in.
func TestArrangeBlocks(t *testing.T) {
	s := newStored(t)
	s.create(append(slices.Clone(threeShapes),
		`{"type":"rectangle","id":"r","x":1000,"y":1000,"width":100,"height":40,"angle":0.7853981633974483}`)...)
	var f string
	s.mustEdit(func(tx *Txn) (err error) {
		if _, err = tx.Group([]string{"a", "b"}, ""); err != nil {
			return err
		}
		f, err = tx.CreateFrame("F", nil, []string{"c"}, 0, "")
		return err
	})
	before := s.doc()
	group, frame, rotated := boxOfID(t, before, "a"), boxOfID(t, before, f), boxOfID(t, before, "r")
	group.Width = boxOfID(t, before, "b").X + boxOfID(t, before, "b").Width - group.X
	doc := arranged(t, s, []string{"r", "b", "a", f, "c"}, Arrangement{Layout: "row", Align: "top", Origin: &Point{0, 0}})
	wantAt(t, doc, "r", 0, 0)
	wantAt(t, doc, "a", rotated.Width+40, 0)
	wantAt(t, doc, "b", rotated.Width+40+boxOfID(t, before, "b").X-group.X, 0)
	wantAt(t, doc, f, rotated.Width+40+group.Width+40, 0)
	c0, c1 := boxOfID(t, before, "c"), boxOfID(t, doc, "c")
	if dx, want := c1.X-c0.X, rotated.Width+80+group.Width-frame.X; math.Abs(dx-want) > 1e-6 {
		t.Errorf("c moved by %g, its frame by %g", dx, want)
	}
	checkArrowFollows(t, doc)
	bumpedOnce(t, before, doc, "r", "a", labelID(t, doc, "a"), "b", "ab", f, "c")
}

func TestArrangeErrors(t *testing.T) {
	s := newStored(t)
	s.create(threeShapes...)
	for _, c := range []struct {
		ids     []string
		a       Arrangement
		code    sceneerr.Code
		pointer string
	}{
		{[]string{"a"}, Arrangement{}, sceneerr.InvalidOperation, "/args"},
		{[]string{"a"}, Arrangement{Layout: "circle"}, sceneerr.InvalidOperation, "/args/layout"},
		{[]string{"a"}, Arrangement{Align: "start"}, sceneerr.InvalidOperation, "/args/align"},
		{[]string{"a"}, Arrangement{Layout: "row", Align: "left"}, sceneerr.InvalidOperation, "/args/align"},
		{[]string{"a"}, Arrangement{Layout: "column", Align: "top"}, sceneerr.InvalidOperation, "/args/align"},
		{[]string{"a"}, Arrangement{Distribute: "diagonal"}, sceneerr.InvalidOperation, "/args/distribute"},
		{[]string{"a"}, Arrangement{Layout: "row", Distribute: "vertical"}, sceneerr.InvalidOperation, "/args/distribute"},
		{[]string{"a"}, Arrangement{Layout: "row", Gap: -1}, sceneerr.InvalidOperation, "/args/gap"},
		{[]string{"a"}, Arrangement{Align: "left", Gap: 5}, sceneerr.InvalidOperation, "/args/gap"},
		{[]string{"a"}, Arrangement{Layout: "row", Columns: 2}, sceneerr.InvalidOperation, "/args/columns"},
		{[]string{"a"}, Arrangement{Layout: "grid", Columns: -2}, sceneerr.InvalidOperation, "/args/columns"},
		{[]string{"a"}, Arrangement{Align: "left", Origin: &Point{}}, sceneerr.InvalidOperation, "/args/origin"},
		{[]string{"a"}, Arrangement{Layout: "row", Origin: &Point{X: 2e6}}, sceneerr.InvalidOperation, "/args/origin"},
		{[]string{"a"}, Arrangement{Layout: "row", Origin: &Point{X: 999990}}, sceneerr.InvalidOperation, "/args"},
		{[]string{"a", "zz"}, Arrangement{Layout: "row"}, sceneerr.NotFound, "/args/ids/1"},
		{[]string{"ab"}, Arrangement{Layout: "row"}, sceneerr.InvalidOperation, "/args/ids"},
	} {
		_, err := s.edit(func(tx *Txn) error { return tx.Arrange(c.ids, c.a, "/args") })
		wantErrAt(t, err, c.code, c.pointer)
	}
}
