package build

import (
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// arrowEnds returns an arrow's first and last points in scene
// coordinates.
func arrowEnds(t *testing.T, a *ojson.Object) (geom.Vec, geom.Vec) {
	t.Helper()
	x, y := numberOf(t, a, "x"), numberOf(t, a, "y")
	pts, _ := a.Array("points")
	at := func(i int) geom.Vec {
		p := pts[i].([]any)
		px, _ := ojson.AsFloat(p[0])
		py, _ := ojson.AsFloat(p[1])
		return geom.V(x+px, y+py)
	}
	return at(0), at(len(pts) - 1)
}

// shapeFromElement reads back an element's geometry.
func shapeFromElement(el *ojson.Object) geom.Shape {
	s, _ := shapeOf(el)
	return s
}

// boundIDs lists an element's boundElements of a kind.
func boundIDs(el *ojson.Object, kind string) []string {
	list, _ := el.Array("boundElements")
	var out []string
	for _, b := range list {
		o := b.(*ojson.Object)
		if k, _ := o.String("type"); k == kind {
			id, _ := o.String("id")
			out = append(out, id)
		}
	}
	return out
}

func TestRoutedArrowBindsBothSides(t *testing.T) {
	res := mustBuild(t, testContext(),
		`{"type":"arrow","id":"ar","startElementId":"a","endElementId":"b"}`,
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":100,"roundness":"sharp"}`,
		`{"type":"rectangle","id":"b","x":300,"y":0,"width":100,"height":100,"roundness":"sharp"}`,
	)
	ar := byID(t, res.Elements, "ar")
	for _, end := range []struct{ field, target string }{{"startBinding", "a"}, {"endBinding", "b"}} {
		b, ok := ar.Object(end.field)
		if !ok {
			t.Fatalf("%s missing: %s", end.field, compact(ar))
		}
		want := `{"elementId":"` + end.target + `","focus":0,"gap":6,"fixedPoint":[0.5001,0.5001],"mode":"orbit"}`
		if got := compact(b); got != want {
			t.Errorf("%s = %s, want %s", end.field, got, want)
		}
		if ids := boundIDs(byID(t, res.Elements, end.target), "arrow"); len(ids) != 1 || ids[0] != "ar" {
			t.Errorf("%s boundElements arrows %v", end.target, ids)
		}
	}
	s, e := arrowEnds(t, ar)
	if s != (geom.V(106, 50)) || e != (geom.V(294, 50)) {
		t.Errorf("arrow from %v to %v, want (106,50) to (294,50)", s, e)
	}
	if numberOf(t, ar, "x") != 106 || numberOf(t, ar, "width") != 188 || numberOf(t, ar, "height") != 0 {
		t.Errorf("arrow box: %s", compact(ar))
	}
}

// Every target shape: the routed ends sit a gap away from the outline
// Excalidraw draws, on the line between the centres.
func TestRoutedEndsOnEachOutline(t *testing.T) {
	targets := []string{
		`{"type":"rectangle","id":"t","x":300,"y":120,"width":160,"height":90}`,
		`{"type":"rectangle","id":"t","x":300,"y":120,"width":160,"height":90,"roundness":"sharp"}`,
		`{"type":"ellipse","id":"t","x":300,"y":120,"width":160,"height":90}`,
		`{"type":"diamond","id":"t","x":300,"y":120,"width":160,"height":90}`,
		`{"type":"diamond","id":"t","x":300,"y":120,"width":160,"height":90,"roundness":"sharp"}`,
		`{"type":"rectangle","id":"t","x":300,"y":120,"width":160,"height":90,"angle":0.7}`,
		`{"type":"ellipse","id":"t","x":300,"y":120,"width":160,"height":90,"angle":2,"strokeWidth":8}`,
		`{"type":"text","id":"t","x":300,"y":120,"text":"bind to text"}`,
		`{"type":"image","id":"t","x":300,"y":120,"width":160,"height":90,"fileId":"file-1","roundness":"round"}`,
	}
	for _, target := range targets {
		res := mustBuild(t, testContext(),
			`{"type":"ellipse","id":"s","x":-40,"y":-30,"width":80,"height":60}`,
			target,
			`{"type":"arrow","id":"ar","startElementId":"s","endElementId":"t"}`,
		)
		src, dst := byID(t, res.Elements, "s"), byID(t, res.Elements, "t")
		start, end := arrowEnds(t, byID(t, res.Elements, "ar"))
		for _, c := range []struct {
			el *ojson.Object
			p  geom.Vec
		}{{src, start}, {dst, end}} {
			s := shapeFromElement(c.el)
			gap := math.Min(5+numberOf(t, c.el, "strokeWidth")/2, 16)
			if d := geom.PolygonDistance(s.Outline(), c.p); math.Abs(d-gap) > 1e-5 {
				t.Errorf("%s: end %v is %v from the outline, want %v", target, c.p, d, gap)
			}
		}
		cs, ct := shapeFromElement(src).Center(), shapeFromElement(dst).Center()
		if off := math.Abs(ct.Sub(cs).Unit().Cross(end.Sub(cs))); off > 1e-5 {
			t.Errorf("%s: end %v is %v off the centre line", target, end, off)
		}
		if start.Dist(cs) >= end.Dist(cs) {
			t.Errorf("%s: arrow points backwards", target)
		}
	}
}

func TestSnappedEndsFollowTheLastSegment(t *testing.T) {
	res := mustBuild(t, testContext(),
		`{"type":"rectangle","id":"r","x":0,"y":0,"width":100,"height":100,"roundness":"sharp"}`,
		`{"type":"arrow","id":"ar","x":-100,"y":30,"points":[[0,0],[150,0]],"endElementId":"r"}`,
	)
	ar := byID(t, res.Elements, "ar")
	start, end := arrowEnds(t, ar)
	if start != (geom.V(-100, 30)) || math.Abs(end.X+6) > 1e-9 || end.Y != 30 {
		t.Errorf("arrow %v -> %v, want the end snapped to (-6, 30)", start, end)
	}
	eb, _ := ar.Object("endBinding")
	focus, _ := eb.Number("focus")
	if math.Abs(focus-0.4) > 1e-9 {
		t.Errorf("focus %v, want 0.4 (the line crosses the diagonals 40%% of the way out)", focus)
	}
	fp, _ := eb.Array("fixedPoint")
	fx, _ := ojson.AsFloat(fp[0])
	fy, _ := ojson.AsFloat(fp[1])
	if math.Abs(fx-0.5001) > 1e-9 || math.Abs(fy-0.3) > 1e-9 {
		t.Errorf("fixedPoint %v,%v, want the chord middle 0.5001,0.3", fx, fy)
	}
	if sb := mustGet(ar, "startBinding"); sb != nil {
		t.Errorf("unbound start has binding %s", compact(sb))
	}
}

func TestSnapMissingLineAimsAtCentre(t *testing.T) {
	res := mustBuild(t, testContext(),
		`{"type":"rectangle","id":"r","x":0,"y":0,"width":100,"height":100,"roundness":"sharp"}`,
		`{"type":"arrow","id":"ar","x":-200,"y":-300,"points":[[0,0],[100,0]],"endElementId":"r"}`,
	)
	start, end := arrowEnds(t, byID(t, res.Elements, "ar"))
	c := geom.V(50, 50)
	if off := math.Abs(c.Sub(start).Unit().Cross(end.Sub(start))); off > 1e-5 {
		t.Errorf("end %v is not on the line to the centre", end)
	}
	if d := geom.PolygonDistance(geom.Shape{Type: "rectangle", W: 100, H: 100}.Outline(), end); math.Abs(d-6) > 1e-5 {
		t.Errorf("end %v is %v from the outline", end, d)
	}
}

func TestBindToExistingElement(t *testing.T) {
	first := mustBuild(t, testContext(), `{"type":"rectangle","id":"old","x":0,"y":0,"width":100,"height":100}`)
	old := first.Elements[0]
	before := compact(old)
	ctx := testContext(old)
	res := mustBuild(t, ctx,
		`{"type":"ellipse","id":"new","x":400,"y":0}`,
		`{"type":"arrow","id":"ar","startElementId":"old","endElementId":"new"}`,
		`{"type":"arrow","id":"ar2","x":0,"y":300,"endElementId":"old"}`,
	)
	if compact(old) != before {
		t.Fatal("Build modified an existing element in place")
	}
	if len(res.Updated) != 1 {
		t.Fatalf("%d updated elements, want 1", len(res.Updated))
	}
	u := res.Updated[0]
	if id, _ := u.String("id"); id != "old" {
		t.Fatalf("updated %q", id)
	}
	if got := boundIDs(u, "arrow"); len(got) != 2 || got[0] != "ar" || got[1] != "ar2" {
		t.Errorf("updated boundElements arrows %v", got)
	}
	if numberOf(t, u, "version") != 2 || numberOf(t, u, "updated") != float64(fixedNow.UnixMilli()) {
		t.Errorf("updated copy not bumped: %s", compact(u))
	}
	if numberOf(t, u, "versionNonce") == numberOf(t, old, "versionNonce") {
		t.Error("versionNonce not renewed")
	}
	idx, _ := res.Elements[0].String("index")
	oldIdx, _ := old.String("index")
	if idx <= oldIdx {
		t.Errorf("new index %q not after existing %q", idx, oldIdx)
	}
}

func TestSameTargetBothEndsNeedsALoop(t *testing.T) {
	_, err := Build(raws(
		`{"type":"rectangle","id":"r","x":0,"y":0}`,
		`{"type":"arrow","startElementId":"r","endElementId":"r"}`,
	), testContext())
	if err == nil {
		t.Fatal("a straight arrow bound twice to one element was accepted")
	}
	res := mustBuild(t, testContext(),
		`{"type":"rectangle","id":"r","x":0,"y":0}`,
		`{"type":"arrow","id":"ar","x":100,"y":50,"points":[[0,0],[80,0],[80,-120],[-30,-120],[-30,-60]],"startElementId":"r","endElementId":"r"}`,
	)
	if got := boundIDs(byID(t, res.Elements, "r"), "arrow"); len(got) != 1 {
		t.Errorf("looping arrow listed %d times in boundElements", len(got))
	}
}

func TestNormalizeFixedPoint(t *testing.T) {
	cases := [][4]float64{
		{0.5, 0.5, 0.5001, 0.5001},
		{0.50005, 0.2, 0.5001, 0.2},
		{0.2, 0.7, 0.2, 0.7},
		{-20, 30, -10, 10},
	}
	for _, c := range cases {
		if x, y := normalizeFixedPoint(c[0], c[1]); x != c[2] || y != c[3] {
			t.Errorf("normalizeFixedPoint(%v, %v) = %v, %v", c[0], c[1], x, y)
		}
	}
}
