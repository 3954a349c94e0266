package build

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// elbowPoints are an arrow's points in scene coordinates.
func elbowPoints(t *testing.T, a *ojson.Object) []geom.Vec {
	t.Helper()
	x, y := numberOf(t, a, "x"), numberOf(t, a, "y")
	raw, _ := a.Array("points")
	out := make([]geom.Vec, len(raw))
	for i, p := range raw {
		q := p.([]any)
		out[i] = geom.V(x+toFloat(q[0]), y+toFloat(q[1]))
	}
	return out
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case int:
		return float64(n)
	case int64:
		return float64(n)
	case float64:
		return n
	}
	panic(v)
}

// checkElbow checks what 0.18.1 needs of a bound elbow arrow: segments
// axis-aligned, each bound end elbowGap from its shape's outline and at
// the point its fixedPoint names, focus and gap 0, fixedSegments the
// inner segments as they are, and the arrow in each target's
// boundElements.
func checkElbow(t *testing.T, els []*ojson.Object, a *ojson.Object) []geom.Vec {
	t.Helper()
	id, _ := a.String("id")
	if e, _ := a.Bool("elbowed"); !e {
		t.Fatalf("%s: not elbowed", id)
	}
	if r, _ := a.Get("roundness"); r != nil {
		t.Errorf("%s: roundness %v, want null as the editor's elbow arrows", id, compact(r))
	}
	pts := elbowPoints(t, a)
	for k := 1; k < len(pts); k++ {
		if pts[k].X != pts[k-1].X && pts[k].Y != pts[k-1].Y {
			t.Errorf("%s: segment %d %v→%v is diagonal", id, k, pts[k-1], pts[k])
		}
	}
	for _, end := range []struct {
		key string
		at  geom.Vec
	}{{"startBinding", pts[0]}, {"endBinding", pts[len(pts)-1]}} {
		b, ok := a.Object(end.key)
		if !ok {
			continue
		}
		tid, _ := b.String("elementId")
		target := byID(t, els, tid)
		s, _ := shapeOf(target)
		if d := geom.PolygonDistance(s.Outline(), end.at); math.Abs(d-elbowGap) > 0.01 {
			t.Errorf("%s: %s end %v is %.3f from %s, want %d", id, end.key, end.at, d, tid, elbowGap)
		}
		fp, _ := b.Array("fixedPoint")
		got := geom.V(s.X+s.W*toFloat(fp[0]), s.Y+s.H*toFloat(fp[1]))
		// normalizeFixedPoint moves a half to 0.5001, as the editor does.
		if got.Dist(end.at) > 1e-4*math.Max(s.W, s.H)+1e-9 {
			t.Errorf("%s: %s fixedPoint names %v, the end is at %v", id, end.key, got, end.at)
		}
		if f, _ := b.Number("focus"); f != 0 {
			t.Errorf("%s: %s focus %v", id, end.key, f)
		}
		if g, _ := b.Number("gap"); g != 0 {
			t.Errorf("%s: %s gap %v", id, end.key, g)
		}
		found := false
		list, _ := target.Array("boundElements")
		for _, e := range list {
			if o := e.(*ojson.Object); func() string { s, _ := o.String("id"); return s }() == id {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: not in %s's boundElements", id, tid)
		}
	}
	fs, _ := a.Get("fixedSegments")
	if len(pts) < 4 {
		if fs != nil {
			t.Errorf("%s: %d points and fixedSegments %s, want null", id, len(pts), compact(fs))
		}
		return pts
	}
	list, _ := fs.([]any)
	if len(list) != len(pts)-3 {
		t.Fatalf("%s: %d fixed segments for %d points", id, len(list), len(pts))
	}
	x, y := numberOf(t, a, "x"), numberOf(t, a, "y")
	for i, e := range list {
		o := e.(*ojson.Object)
		iv, _ := o.Get("index")
		k := int(toFloat(iv))
		if k != i+2 {
			t.Errorf("%s: fixed segment %d has index %d, want %d", id, i, k, i+2)
			continue
		}
		st, _ := o.Array("start")
		en, _ := o.Array("end")
		if geom.V(x+toFloat(st[0]), y+toFloat(st[1])) != pts[k-1] || geom.V(x+toFloat(en[0]), y+toFloat(en[1])) != pts[k] {
			t.Errorf("%s: fixed segment %d is %v→%v, the points %v→%v", id, k, st, en, pts[k-1], pts[k])
		}
	}
	return pts
}

// crossesBox reports whether the polyline passes through r's inside.
func crossesBox(pts []geom.Vec, r geom.Rect) bool {
	for k := 1; k < len(pts); k++ {
		a, b := pts[k-1], pts[k]
		lo, hi := geom.V(math.Min(a.X, b.X), math.Min(a.Y, b.Y)), geom.V(math.Max(a.X, b.X), math.Max(a.Y, b.Y))
		if lo.X < r.MaxX && hi.X > r.MinX && lo.Y < r.MaxY && hi.Y > r.MinY {
			return true
		}
	}
	return false
}

func TestElbowRoutedAroundShapes(t *testing.T) {
	res := mustBuild(t, testContext(),
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":120,"height":60}`,
		`{"type":"rectangle","id":"wall","x":200,"y":-100,"width":60,"height":260}`,
		`{"type":"ellipse","id":"b","x":340,"y":0,"width":100,"height":60}`,
		`{"type":"diamond","id":"c","x":0,"y":300,"width":120,"height":80}`,
		`{"type":"arrow","id":"ab","elbowed":true,"startElementId":"a","endElementId":"b","label":{"text":"around"}}`,
		`{"type":"arrow","id":"ac","elbowed":true,"startElementId":"a","endElementId":"c"}`,
		`{"type":"arrow","id":"bc","elbowed":true,"startElementId":"b","endElementId":"c","endArrowhead":"triangle"}`,
	)
	wall := geom.R(200, -100, 260, 160)
	for _, id := range []string{"ab", "ac", "bc"} {
		pts := checkElbow(t, res.Elements, byID(t, res.Elements, id))
		if crossesBox(pts, wall) {
			t.Errorf("%s passes through the wall: %v", id, pts)
		}
	}
	if n := len(elbowPoints(t, byID(t, res.Elements, "ab"))); n < 4 {
		t.Errorf("ab has %d points: it cannot get round the wall", n)
	}
}

func TestElbowAlongPoints(t *testing.T) {
	res := mustBuild(t, testContext(),
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":50}`,
		`{"type":"rectangle","id":"b","x":300,"y":200,"width":100,"height":50}`,
		// Ends given inside the shapes and a segment 0.4 px off: the ends
		// are moved out to the gap, the segment straightened.
		`{"type":"arrow","id":"ab","elbowed":true,"x":50,"y":25,"points":[[0,0],[150,0.4],[150,200],[300,200]],"startElementId":"a","endElementId":"b"}`,
		// Unbound: kept as given, points in a line too (they place the label).
		`{"type":"arrow","id":"free","elbowed":true,"x":0,"y":400,"points":[[0,0],[50,0],[100,0],[100,80]]}`,
	)
	pts := checkElbow(t, res.Elements, byID(t, res.Elements, "ab"))
	want := []geom.Vec{{X: 105, Y: 25}, {X: 200, Y: 25}, {X: 200, Y: 225}, {X: 295, Y: 225}}
	if len(pts) != len(want) {
		t.Fatalf("ab: %v, want %v", pts, want)
	}
	for i := range want {
		if pts[i].Dist(want[i]) > 1e-9 {
			t.Fatalf("ab: %v, want %v", pts, want)
		}
	}
	free := elbowPoints(t, byID(t, res.Elements, "free"))
	if len(free) != 4 || free[3] != geom.V(100, 480) {
		t.Errorf("free: %v", free)
	}
}

func TestElbowErrors(t *testing.T) {
	shapes := []string{
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":50}`,
		`{"type":"rectangle","id":"b","x":300,"y":200,"width":100,"height":50}`,
	}
	for _, c := range []struct {
		name, arrow, pointer, words string
	}{
		{"diagonal", `{"type":"arrow","elbowed":true,"x":0,"y":0,"points":[[0,0],[40,0],[80,30]]}`, "/points/2", "diagonally"},
		{"last segment misses", `{"type":"arrow","elbowed":true,"x":100,"y":25,"points":[[0,0],[100,0],[100,100]],"startElementId":"a","endElementId":"b"}`, "/endElementId", "last segment"},
		{"first segment from inside", `{"type":"arrow","elbowed":true,"x":50,"y":10,"points":[[0,0],[0,30],[300,30],[300,200]],"startElementId":"a","endElementId":"b"}`, "/startElementId", "first segment"},
		{"one point twice", `{"type":"arrow","elbowed":true,"x":0,"y":0,"points":[[5,5],[5,5]]}`, "/points", "coincide"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Build(raws(append(append([]string{}, shapes...), c.arrow)...), testContext())
			var se *sceneerr.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *sceneerr.Error", err)
			}
			if se.Code != sceneerr.InvalidOperation || se.Details["index"] != 2 || se.Details["pointer"] != c.pointer || !strings.Contains(se.Message, c.words) {
				t.Errorf("got %s %v %q, want invalid_operation at 2 %s saying %q", se.Code, se.Details, se.Message, c.pointer, c.words)
			}
		})
	}
}

// TestElbowToExisting: an elbow arrow between shapes already in the
// scene is routed around the scene's other shapes, and the targets are
// updated with it.
func TestElbowToExisting(t *testing.T) {
	first := mustBuild(t, testContext(),
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":60}`,
		`{"type":"rectangle","id":"mid","x":0,"y":120,"width":100,"height":60}`,
		`{"type":"rectangle","id":"b","x":0,"y":240,"width":100,"height":60}`,
	)
	res := mustBuild(t, testContext(first.Elements...), `{"type":"arrow","id":"ab","elbowed":true,"startElementId":"a","endElementId":"b"}`)
	all := append(append([]*ojson.Object{}, res.Updated...), res.Elements...)
	all = append(all, byID(t, first.Elements, "mid"))
	pts := checkElbow(t, all, byID(t, res.Elements, "ab"))
	if crossesBox(pts, geom.R(0, 120, 100, 180)) {
		t.Errorf("ab passes through mid: %v", pts)
	}
	if len(res.Updated) != 2 {
		t.Errorf("%d elements updated, want a and b", len(res.Updated))
	}
}
