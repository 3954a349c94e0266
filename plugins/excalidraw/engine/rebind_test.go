package engine

import (
	"fmt"
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// bindingGap is how far the builder keeps a bound end outside its
// target's outline: BASE_BINDING_GAP (5) plus half the target's stroke.
func bindingGap(target *ojson.Object) float64 { return 5 + scene.NumberOf(target, "strokeWidth")/2 }

// outlineDistance is the distance from p to the outline of an ellipse or
// a sharp rectangle, negative inside, computed from the shape's own
// equation: the ellipse inscribed in the box, sampled densely (well under
// 0.01 px between samples here), or the rectangle's edges. A rotated
// shape is measured in its own frame (p turned back about the centre).
func outlineDistance(el *ojson.Object, p point) float64 {
	x, y, w, h := scene.NumberOf(el, "x"), scene.NumberOf(el, "y"), scene.NumberOf(el, "width"), scene.NumberOf(el, "height")
	if a := scene.NumberOf(el, "angle"); a != 0 {
		cx, cy := x+w/2, y+h/2
		s, c := math.Sincos(-a)
		dx, dy := p[0]-cx, p[1]-cy
		p = point{cx + dx*c - dy*s, cy + dx*s + dy*c}
	}
	switch scene.StringOf(el, "type") {
	case "ellipse":
		cx, cy, a, b := x+w/2, y+h/2, w/2, h/2
		best := math.Inf(1)
		const n = 200000
		for i := range n {
			s, c := math.Sincos(2 * math.Pi * float64(i) / n)
			best = math.Min(best, math.Hypot(p[0]-(cx+a*c), p[1]-(cy+b*s)))
		}
		if u, v := (p[0]-cx)/a, (p[1]-cy)/b; u*u+v*v < 1 {
			return -best
		}
		return best
	case "rectangle":
		dx := math.Max(math.Max(x-p[0], p[0]-(x+w)), 0)
		dy := math.Max(math.Max(y-p[1], p[1]-(y+h)), 0)
		if dx == 0 && dy == 0 { // inside: to the nearest edge
			return -math.Min(math.Min(p[0]-x, x+w-p[0]), math.Min(p[1]-y, y+h-p[1]))
		}
		return math.Hypot(dx, dy)
	}
	panic("no outline for " + scene.StringOf(el, "type"))
}

// checkOnOutline asserts that p sits the binding gap outside target's
// outline, within 1 px.
func checkOnOutline(t *testing.T, what string, p point, target *ojson.Object) {
	t.Helper()
	d, gap := outlineDistance(target, p), bindingGap(target)
	if math.Abs(d-gap) > 1 {
		t.Errorf("%s %v is %.2f px from %s's outline, want %.0f ± 1", what, p, d, scene.StringOf(target, "id"), gap)
	}
}

func samePoint(p, q point) bool { return math.Abs(p[0]-q[0]) < 1e-6 && math.Abs(p[1]-q[1]) < 1e-6 }

// checkBinding asserts that an end's binding still names its target, keeps
// the builder's gap, and aims (fixedPoint, a ratio of the target's
// unrotated box)
// at a point inside the target on the line of the arrow's end segment:
// the binding was recomputed for the new geometry, not carried over.
func checkBinding(t *testing.T, a *ojson.Object, key string, target *ojson.Object) {
	t.Helper()
	b, ok := a.Object(key)
	if !ok || scene.StringOf(b, "elementId") != scene.StringOf(target, "id") {
		t.Fatalf("%s.%s = %v, want bound to %s", scene.StringOf(a, "id"), key, b, scene.StringOf(target, "id"))
	}
	if scene.NumberOf(b, "gap") != bindingGap(target) {
		t.Errorf("%s.%s gap %v, want %v", scene.StringOf(a, "id"), key, scene.NumberOf(b, "gap"), bindingGap(target))
	}
	fp, _ := b.Array("fixedPoint")
	if len(fp) != 2 {
		t.Fatalf("%s.%s has no fixedPoint: %v", scene.StringOf(a, "id"), key, b)
	}
	fx, _ := ojson.AsFloat(fp[0])
	fy, _ := ojson.AsFloat(fp[1])
	x, y, w, h := scene.NumberOf(target, "x"), scene.NumberOf(target, "y"), scene.NumberOf(target, "width"), scene.NumberOf(target, "height")
	aim := point{x + fx*w, y + fy*h} // in the box's own frame: turn it with the box
	if a := scene.NumberOf(target, "angle"); a != 0 {
		s, c := math.Sincos(a)
		dx, dy := aim[0]-x-w/2, aim[1]-y-h/2
		aim = point{x + w/2 + dx*c - dy*s, y + h/2 + dx*s + dy*c}
	}
	if outlineDistance(target, aim) > 0 {
		t.Errorf("%s.%s aims at %v, outside %s", scene.StringOf(a, "id"), key, aim, scene.StringOf(target, "id"))
	}
	pts := globalPoints(a)
	end, adj := pts[0], pts[1]
	if key == "endBinding" {
		end, adj = pts[len(pts)-1], pts[len(pts)-2]
	}
	// Distance of aim from the line through adj and end (the 0.5001
	// rounding of a centred ratio moves it by up to 1e-4 of the box).
	dx, dy := end[0]-adj[0], end[1]-adj[1]
	if off := math.Abs(dx*(aim[1]-adj[1])-dy*(aim[0]-adj[0])) / math.Hypot(dx, dy); off > 0.5 {
		t.Errorf("%s.%s aims at %v, %.2f px off the end segment %v→%v", scene.StringOf(a, "id"), key, aim, off, adj, end)
	}
}

// bound is a scene of an ellipse and a sharp rectangle with arrows bound
// at both ends: one between them (routed), one from the ellipse to a
// third box, one with its own points from the rectangle to that box, and
// one from the box to the ellipse.
func bound(t *testing.T, s *stored) {
	t.Helper()
	s.create(
		`{"type":"ellipse","id":"e","x":0,"y":0,"width":200,"height":120}`,
		`{"type":"rectangle","id":"r","x":500,"y":-40,"width":160,"height":100,"roundness":"sharp"}`,
		`{"type":"rectangle","id":"s","x":150,"y":400,"width":120,"height":80,"roundness":"sharp","strokeWidth":4}`,
		`{"type":"arrow","id":"er","startElementId":"e","endElementId":"r","label":{"text":"on"}}`,
		`{"type":"arrow","id":"es","startElementId":"e","endElementId":"s"}`,
		`{"type":"arrow","id":"rs","x":580,"y":60,"points":[[0,0],[0,380],[-300,380]],"startElementId":"r","endElementId":"s"}`,
		`{"type":"arrow","id":"se","x":150,"y":440,"points":[[0,0],[-100,0],[-100,-300]],"startElementId":"s","endElementId":"e"}`)
}

// Resizing or moving a shape re-attaches every arrow end bound to it to
// its new outline (the builder's binding gap outside it), as the builder
// attaches new arrows; the arrows' other ends and inner points stay where
// they are, and the bindings are recomputed for the new geometry.
func TestBoundEndsFollowTheOutline(t *testing.T) {
	for _, c := range []struct {
		name, shape, patch string
	}{
		{"grow ellipse", "e", `{"width":320,"height":200}`},
		{"shrink ellipse", "e", `{"width":90,"height":60}`},
		{"move and resize ellipse", "e", `{"x":-80,"y":40,"width":150,"height":260}`},
		{"move rectangle", "r", `{"x":560,"y":80}`},
		{"move rectangle far", "r", `{"x":-400,"y":-300}`},
		{"resize rectangle", "r", `{"width":60,"height":300}`},
		{"grow thick box", "s", `{"width":300,"height":40}`},
		{"rotate rectangle", "r", `{"angle":0.6}`},
		{"rotate and move ellipse", "e", `{"angle":-1.2,"x":60}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStored(t)
			bound(t, s)
			before := s.doc()
			if _, err := s.apply(
				`{"op":"update","id":"` + c.shape + `","patch":` + c.patch + `}`); err != nil {
				t.Fatal(err)
			}
			after := s.doc()
			for _, id := range []string{"er", "es", "rs", "se"} {
				was, a := globalPoints(element(t, before, id)), element(t, after, id)
				now := globalPoints(a)
				if len(now) != len(was) {
					t.Fatalf("%s has %d points, had %d", id, len(now), len(was))
				}
				for i := 1; i < len(now)-1; i++ {
					if !samePoint(now[i], was[i]) {
						t.Errorf("%s point %d moved %v → %v", id, i, was[i], now[i])
					}
				}
				for k, end := range []struct {
					key string
					i   int
				}{{"startBinding", 0}, {"endBinding", len(now) - 1}} {
					target := element(t, after, bindingTarget(a, end.key))
					what := fmt.Sprintf("%s end %d", id, k)
					if scene.StringOf(target, "id") == c.shape {
						checkOnOutline(t, what, now[end.i], target)
					} else if !samePoint(now[end.i], was[end.i]) {
						t.Errorf("%s (bound to %s, which did not change) moved %v → %v", what, scene.StringOf(target, "id"), was[end.i], now[end.i])
					}
					checkBinding(t, a, end.key, target)
				}
			}
		})
	}
}

// An arrow's label follows the arrow when a bound end re-attaches: it is
// centred on the arrow's middle again.
func TestReattachedArrowLabelCentred(t *testing.T) {
	s := newStored(t)
	bound(t, s)
	if _, err := s.apply(
		`{"op":"update","id":"r","patch":{"x":560,"y":200}}`); err != nil {
		t.Fatal(err)
	}
	doc := s.doc()
	er := element(t, doc, "er")
	pts := globalPoints(er)
	mid := point{(pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2}
	l := element(t, doc, labelID(t, doc, "er"))
	if c := (point{scene.NumberOf(l, "x") + scene.NumberOf(l, "width")/2, scene.NumberOf(l, "y") + scene.NumberOf(l, "height")/2}); !samePoint(c, mid) {
		t.Fatalf("label centred on %v, the arrow's middle is %v", c, mid)
	}
}

// A label that grows its container (a longer text patched by the label's
// own id) re-attaches the container's arrows to its new outline.
func TestGrowingLabelReattachesArrows(t *testing.T) {
	s := newStored(t)
	s.create(
		`{"type":"rectangle","id":"r","x":0,"y":0,"width":120,"height":60,"roundness":"sharp","label":{"text":"a"}}`,
		`{"type":"rectangle","id":"q","x":0,"y":300,"width":120,"height":60,"roundness":"sharp"}`,
		`{"type":"arrow","id":"rq","startElementId":"q","endElementId":"r"}`)
	doc := s.doc()
	if _, err := s.apply(
		`{"op":"update","id":"` + labelID(t, doc, "r") + `","patch":{"text":"` + longText + `"}}`); err != nil {
		t.Fatal(err)
	}
	doc = s.doc()
	r := element(t, doc, "r")
	if scene.NumberOf(r, "height") <= 60 {
		t.Fatalf("container did not grow: %v", r)
	}
	pts := globalPoints(element(t, doc, "rq"))
	checkOnOutline(t, "rq end", pts[len(pts)-1], r)
}

// elbowScene is two boxes joined by an elbow arrow, as the editor saves
// them (0.18.1's elbow bindings: fixedPoint is where the end sits, as a
// ratio of the box, 5 px outside it).
const elbowScene = `{"type":"excalidraw","version":2,"elements":[
 {"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":100,"boundElements":[{"id":"e","type":"arrow"}]},
 {"type":"rectangle","id":"b","x":300,"y":200,"width":100,"height":100,"boundElements":[{"id":"e","type":"arrow"}]},
 {"type":"arrow","id":"e","x":105,"y":50,"width":190,"height":200,"elbowed":true,
  "points":[[0,0],[95,0],[95,200],[190,200]],
  "startBinding":{"elementId":"a","focus":0,"gap":5,"fixedPoint":[1.05,0.5001]},
  "endBinding":{"elementId":"b","focus":0,"gap":5,"fixedPoint":[-0.05,0.5001]}}]}`

// An elbow arrow whose bound shape is resized keeps a route the editor
// accepts: every segment axis-aligned, the bound end on the new outline,
// and fixedPoint (where 0.18.1 puts an elbow end) at that end; the other
// end stays.
func TestElbowEndsFollowTheOutline(t *testing.T) {
	for _, patch := range []string{
		`{"x":250,"width":200}`,
		`{"width":40,"height":300,"y":100}`,
		`{"y":260}`,
	} {
		t.Run(patch, func(t *testing.T) {
			s := newStored(t)
			s.save([]byte(elbowScene))
			before := globalPoints(element(t, s.doc(), "e"))
			if _, err := s.apply(
				`{"op":"update","id":"b","patch":` + patch + `}`); err != nil {
				t.Fatal(err)
			}
			doc := s.doc()
			a, b := element(t, doc, "e"), element(t, doc, "b")
			pts := globalPoints(a)
			for k := 1; k < len(pts); k++ {
				if math.Abs(pts[k][0]-pts[k-1][0]) >= 1 && math.Abs(pts[k][1]-pts[k-1][1]) >= 1 {
					t.Fatalf("diagonal segment %d in %v", k, pts)
				}
			}
			end := pts[len(pts)-1]
			if d := outlineDistance(b, end); d < 4 || d > 7 {
				t.Errorf("end %v is %.2f px from b's outline", end, d)
			}
			if !samePoint(pts[0], before[0]) {
				t.Errorf("start moved %v → %v", before[0], pts[0])
			}
			eb, _ := a.Object("endBinding")
			fp, _ := eb.Array("fixedPoint")
			fx, _ := ojson.AsFloat(fp[0])
			fy, _ := ojson.AsFloat(fp[1])
			at := point{scene.NumberOf(b, "x") + fx*scene.NumberOf(b, "width"), scene.NumberOf(b, "y") + fy*scene.NumberOf(b, "height")}
			if math.Hypot(at[0]-end[0], at[1]-end[1]) > 1 {
				t.Errorf("fixedPoint %v puts the end at %v, it is at %v", fp, at, end)
			}
		})
	}
}
