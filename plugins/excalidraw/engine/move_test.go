package engine

import (
	"math"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Moving a labelled box moves its label by as much and re-attaches the
// arrow bound to it; the other end stays, and the arrow keeps both
// bindings. Exactly the box, its label and the arrow change, once.
func TestMoveCarriesLabelAndFollows(t *testing.T) {
	s := newStored(t)
	before := s.create(flowInputs...)
	lid := labelID(t, before, "a")
	var unbound []Unbound
	tx := s.mustEdit(func(tx *Txn) (err error) {
		unbound, err = tx.Move([]string{"a"}, 0, 120, "/ids")
		return err
	})
	after := s.doc()
	if len(unbound) != 0 {
		t.Fatalf("unbound %v", unbound)
	}
	a, l := element(t, after, "a"), element(t, after, lid)
	if scene.NumberOf(a, "y") != 120 || scene.NumberOf(l, "y")-scene.NumberOf(element(t, before, lid), "y") != 120 {
		t.Fatalf("box at y %v, label moved by %v", scene.NumberOf(a, "y"), scene.NumberOf(l, "y")-scene.NumberOf(element(t, before, lid), "y"))
	}
	ab := element(t, after, "ab")
	pts := globalPoints(ab)
	checkOnOutline(t, "start", pts[0], a)
	if was := globalPoints(element(t, before, "ab")); !samePoint(pts[1], was[1]) {
		t.Fatalf("end moved %v → %v", was[1], pts[1])
	}
	checkBinding(t, ab, "startBinding", a)
	if bindingTarget(ab, "endBinding") != "b" {
		t.Fatalf("end unbound: %v", ab)
	}
	if got := tx.Touched(); !slices.Equal(got, []string{"a", lid, "ab"}) {
		t.Fatalf("touched %v", got)
	}
}

// An arrow whose bound ends both move with the block moves whole: same
// points, same bindings, its label carried.
func TestMoveBothEndsTranslatesArrow(t *testing.T) {
	s := newStored(t)
	before := s.create(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":160,"height":80}`,
		`{"type":"ellipse","id":"b","x":400,"y":100,"width":120,"height":80}`,
		`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b","label":{"text":"calls"}}`)
	s.mustEdit(func(tx *Txn) error { _, err := tx.Move([]string{"a", "b"}, 30, -40, "/ids"); return err })
	after := s.doc()
	was, now := element(t, before, "ab"), element(t, after, "ab")
	if scene.NumberOf(now, "x")-scene.NumberOf(was, "x") != 30 || scene.NumberOf(now, "y")-scene.NumberOf(was, "y") != -40 {
		t.Fatalf("arrow moved to %v,%v from %v,%v", scene.NumberOf(now, "x"), scene.NumberOf(now, "y"), scene.NumberOf(was, "x"), scene.NumberOf(was, "y"))
	}
	for _, k := range []string{"points", "startBinding", "endBinding", "width", "height"} {
		v0, _ := was.Get(k)
		v1, _ := now.Get(k)
		if !ojson.Equal(v0, v1, true) {
			t.Errorf("%s changed: %v → %v", k, v0, v1)
		}
	}
	l0, l1 := element(t, before, labelID(t, before, "ab")), element(t, after, labelID(t, after, "ab"))
	if scene.NumberOf(l1, "x")-scene.NumberOf(l0, "x") != 30 || scene.NumberOf(l1, "y")-scene.NumberOf(l0, "y") != -40 {
		t.Fatalf("arrow label not carried: %v → %v", l0, l1)
	}
}

// An arrow moved without the elements it is bound to leaves them: both
// ends are unbound, reported, and gone from the targets' boundElements.
// Moved with one of them, it keeps that binding only.
func TestMoveArrowUnbindsEndsLeft(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	var unbound []Unbound
	s.mustEdit(func(tx *Txn) (err error) { unbound, err = tx.Move([]string{"ab"}, 0, 300, "/ids"); return err })
	want := []Unbound{{Arrow: "ab", End: "start", Target: "a"}, {Arrow: "ab", End: "end", Target: "b"}}
	if !slices.Equal(unbound, want) {
		t.Fatalf("unbound %v, want %v", unbound, want)
	}
	doc := s.doc()
	ab := element(t, doc, "ab")
	if !ab.IsNull("startBinding") || !ab.IsNull("endBinding") || hasBound(element(t, doc, "a"), "ab") || hasBound(element(t, doc, "b"), "ab") {
		t.Fatalf("still bound: %v", ab)
	}

	s.create(flowInputs...)
	s.mustEdit(func(tx *Txn) (err error) { unbound, err = tx.Move([]string{"ab", "a"}, 0, 50, "/ids"); return err })
	doc = s.doc()
	ab = element(t, doc, "ab")
	if !slices.Equal(unbound, want[1:]) || bindingTarget(ab, "startBinding") != "a" || !hasBound(element(t, doc, "a"), "ab") {
		t.Fatalf("unbound %v, arrow %v", unbound, ab)
	}
}

// A frame moves with its children (and their labels); naming a label
// moves its container.
func TestMoveFrameAndLabel(t *testing.T) {
	s := newStored(t)
	framed(t, s)
	before := s.doc()
	lid := labelID(t, before, "in")
	s.mustEdit(func(tx *Txn) error { _, err := tx.Move([]string{"f"}, 100, 10, "/ids"); return err })
	after := s.doc()
	for _, id := range []string{"f", "in", lid} {
		if dx := scene.NumberOf(element(t, after, id), "x") - scene.NumberOf(element(t, before, id), "x"); math.Abs(dx-100) > 1e-9 {
			t.Errorf("%s moved by %v", id, dx)
		}
	}
	if scene.NumberOf(element(t, after, "out"), "x") != scene.NumberOf(element(t, before, "out"), "x") {
		t.Error("an element outside the frame moved")
	}
	s.mustEdit(func(tx *Txn) error { _, err := tx.Move([]string{lid}, 0, 7, "/ids"); return err })
	if dy := scene.NumberOf(element(t, s.doc(), "in"), "y") - scene.NumberOf(element(t, after, "in"), "y"); dy != 7 {
		t.Fatalf("naming the label moved its container by %v", dy)
	}
}

// MoveTo puts the top-left corner of the block's box on the point.
func TestMoveTo(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	s.mustEdit(func(tx *Txn) error { _, err := tx.MoveTo([]string{"a", "b", "ab"}, 500, -200, "/ids"); return err })
	doc := s.doc()
	b, _ := query.Bounds([]*ojson.Object{element(t, doc, "a"), element(t, doc, "b"), element(t, doc, "ab")})
	if math.Abs(b.X-500) > 1e-9 || math.Abs(b.Y+200) > 1e-9 {
		t.Fatalf("box at %v", b)
	}
}

func TestMoveErrors(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	if _, err := s.apply(`{"op":"delete","id":"b"}`); err != nil {
		t.Fatal(err)
	}
	_, err := s.edit(func(tx *Txn) error { _, err := tx.Move([]string{"a", "zz"}, 1, 1, "/ids"); return err })
	wantErrAt(t, err, sceneerr.NotFound, "/ids/1")
	_, err = s.edit(func(tx *Txn) error { _, err := tx.Move([]string{"b"}, 1, 1, "/ids"); return err })
	wantErrAt(t, err, sceneerr.NotFound, "/ids/0")
	_, err = s.edit(func(tx *Txn) error { _, err := tx.Move([]string{"a"}, 2e6, 0, "/args/ids"); return err })
	wantErrAt(t, err, sceneerr.InvalidOperation, "/args/ids")
	_, err = s.edit(func(tx *Txn) error { _, err := tx.Move(nil, 1, 0, "/ids"); return err })
	wantErrAt(t, err, sceneerr.InvalidOperation, "/ids")
	// A spent Txn answers its first failure.
	_, err = s.edit(func(tx *Txn) error {
		tx.Move([]string{"zz"}, 1, 1, "/ids")
		_, err := tx.Move([]string{"a"}, 1, 1, "/ids")
		return err
	})
	wantErrAt(t, err, sceneerr.NotFound, "/ids/0")
}

// A move by nothing changes nothing.
func TestMoveByNothing(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	tx := s.mustEdit(func(tx *Txn) error { _, err := tx.Move([]string{"a", "ab"}, 0, 0, "/ids"); return err })
	if got := tx.Touched(); len(got) != 0 {
		t.Fatalf("touched %v", got)
	}
}

// framed stores a frame f holding a labelled box "in", and a box "out"
// outside it.
func framed(t *testing.T, s *stored) {
	t.Helper()
	s.save([]byte(`{"type":"excalidraw","version":2,"elements":[
	 {"type":"frame","id":"f","x":0,"y":0,"width":400,"height":300,"name":"F"}]}`))
	if _, err := s.apply(
		`{"op":"add","element":{"type":"rectangle","id":"in","x":40,"y":40,"frameId":"f","label":{"text":"inside"}}}`,
		`{"op":"add","element":{"type":"rectangle","id":"out","x":600,"y":40}}`); err != nil {
		t.Fatal(err)
	}
}

// An arrow bound at one end only keeps its free end where it was when
// its shape moves: the bound end follows, as in the editor.
func TestMoveOneBoundEndFollows(t *testing.T) {
	s := newStored(t)
	before := s.create(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":100}`,
		`{"type":"arrow","id":"free","x":300,"y":50,"points":[[0,0],[-150,0]],"endElementId":"a"}`)
	s.mustEdit(func(tx *Txn) error { _, err := tx.Move([]string{"a"}, 0, 40, "/ids"); return err })
	doc := s.doc()
	was, now := globalPoints(element(t, before, "free")), globalPoints(element(t, doc, "free"))
	if !samePoint(was[0], now[0]) {
		t.Fatalf("free end moved %v → %v", was[0], now[0])
	}
	checkOnOutline(t, "bound end", now[1], element(t, doc, "a"))
}

// TestMoveReroutesElbowArrows: moving a box routes the elbow arrows bound
// to it again around every shape (following alone would have kept a route
// that now runs through the box in the way), reports them in Rerouted,
// and keeps them bound and orthogonal, one version step each.
func TestMoveReroutesElbowArrows(t *testing.T) {
	s := newStored(t)
	s.create(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":60}`,
		`{"type":"rectangle","id":"b","x":300,"y":0,"width":100,"height":60}`,
		`{"type":"rectangle","id":"wall","x":120,"y":150,"width":160,"height":60}`,
		`{"type":"arrow","id":"ab","elbowed":true,"startElementId":"a","endElementId":"b","label":{"text":"calls"}}`,
	)
	before := element(t, s.doc(), "ab")
	v0, _ := before.Number("version")
	// b goes below the wall: a straight route from a's bottom to b would
	// now pass through it.
	tx := s.mustEdit(func(tx *Txn) error {
		_, err := tx.Move([]string{"b"}, -150, 300, "/ids")
		return err
	})
	if r := tx.Rerouted(); len(r) != 1 || r[0] != "ab" {
		t.Fatalf("Rerouted %v, want [ab]", r)
	}
	ab := element(t, s.doc(), "ab")
	if v, _ := ab.Number("version"); v != v0+1 {
		t.Errorf("version %v after one move, was %v", v, v0)
	}
	pts := globalPoints(ab)
	wall := [4]float64{120, 150, 280, 210}
	for k := 1; k < len(pts); k++ {
		a, b := pts[k-1], pts[k]
		if a[0] != b[0] && a[1] != b[1] {
			t.Errorf("segment %d is diagonal: %v", k, pts)
		}
		if math.Min(a[0], b[0]) < wall[2] && math.Max(a[0], b[0]) > wall[0] && math.Min(a[1], b[1]) < wall[3] && math.Max(a[1], b[1]) > wall[1] {
			t.Errorf("segment %d runs through the wall: %v", k, pts)
		}
	}
	for _, k := range []string{"startBinding", "endBinding"} {
		if _, ok := ab.Object(k); !ok {
			t.Errorf("%s lost", k)
		}
	}
	// Moving both ends together moves the arrow whole: nothing rerouted.
	tx = s.mustEdit(func(tx *Txn) error {
		_, err := tx.Move([]string{"a", "b"}, 0, 500, "/ids")
		return err
	})
	if r := tx.Rerouted(); len(r) != 0 {
		t.Errorf("a whole move rerouted %v", r)
	}
}

// TestUpdateElbowed: update_elements' elbowed turns a bound arrow into an
// elbow arrow routed around the shapes, a free one into three
// axis-aligned segments, and back.
func TestUpdateElbowed(t *testing.T) {
	s := newStored(t)
	s.create(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":60}`,
		`{"type":"rectangle","id":"b","x":300,"y":200,"width":100,"height":60}`,
		`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b"}`,
		`{"type":"arrow","id":"free","x":0,"y":400,"points":[[0,0],[200,90]]}`,
	)
	if _, err := s.apply(`{"op":"update","id":"ab","patch":{"elbowed":true}}`, `{"op":"update","id":"free","patch":{"elbowed":true}}`); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"ab", "free"} {
		el := element(t, s.doc(), id)
		if e, _ := el.Bool("elbowed"); !e {
			t.Fatalf("%s not elbowed", id)
		}
		pts := globalPoints(el)
		for k := 1; k < len(pts); k++ {
			if pts[k][0] != pts[k-1][0] && pts[k][1] != pts[k-1][1] {
				t.Errorf("%s: segment %d diagonal: %v", id, k, pts)
			}
		}
	}
	ab := element(t, s.doc(), "ab")
	sb, _ := ab.Object("startBinding")
	if fp, ok := sb.Array("fixedPoint"); !ok || len(fp) != 2 {
		t.Errorf("ab's start binding has no fixedPoint: %v", sb)
	}
	if free := globalPoints(element(t, s.doc(), "free")); free[0] != (point{0, 400}) || free[len(free)-1] != (point{200, 490}) {
		t.Errorf("free's ends moved: %v", free)
	}
	if _, err := s.apply(`{"op":"update","id":"ab","patch":{"elbowed":false}}`); err != nil {
		t.Fatal(err)
	}
	if ab := element(t, s.doc(), "ab"); ab.Has("fixedSegments") {
		t.Errorf("a plain arrow kept fixedSegments")
	}
	if _, err := s.apply(`{"op":"update","id":"a","patch":{"elbowed":true}}`); err == nil {
		t.Error("elbowed on a rectangle was taken")
	}
}
