package build

import (
	"fmt"
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram/route"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Elbow arrows, as Excalidraw 0.18.1 keeps them:
//
//   - every segment is horizontal or vertical;
//   - a bound end lies elbowGap (its FIXED_BINDING_DISTANCE) from the
//     target's outline, and its binding's fixedPoint is that point as
//     fractions of the target's box, with focus and gap 0; an end at any
//     other distance the editor moves onto its own choice of side;
//   - fixedSegments lists the segments the editor must keep when a bound
//     shape moves: with none it routes the whole arrow again (around its
//     two shapes only), with some it keeps every point but the two at
//     each end. A route of ours, which goes around every shape, is kept
//     by listing its inner segments (all but the first and the last).
const elbowGap = 5

// skewTolerance is how far off horizontal or vertical a segment of a
// given elbow path may be: within it the segment is straightened, beyond
// it the path is refused (Excalidraw's validateElbowPoints allows 1).
const skewTolerance = 1

// elbowPath checks and tidies an elbow arrow's path: each segment
// straightened (within skewTolerance), zero-length segments dropped, and
// each bound end moved along its last segment to
// elbowGap from its target's outline. It returns the path and the
// pointer of the mistake when the path cannot be an elbow arrow.
func elbowPath(p path, ts, te *bindTarget) (path, string, string) {
	g := p.globals()
	for k := 1; k < len(g); k++ {
		d := g[k].Sub(g[k-1])
		switch {
		case math.Abs(d.X) < skewTolerance:
			g[k].X = g[k-1].X
		case math.Abs(d.Y) < skewTolerance:
			g[k].Y = g[k-1].Y
		default:
			return path{}, fmt.Sprintf("/points/%d", k), "an elbow arrow's segments run horizontally or vertically; this one runs diagonally (leave out points and bind both ends to have it routed)"
		}
	}
	g = simplifyOrthogonal(g)
	if len(g) < 2 {
		return path{}, "/points", "an elbow arrow needs two distinct points"
	}
	if ts != nil {
		end, ok := elbowEnd(ts, g[0], g[1])
		if !ok {
			return path{}, "/startElementId", "the arrow's first segment must run from its start element, from outside it (or leave out points to have it routed)"
		}
		g[0] = end
	}
	if te != nil {
		n := len(g)
		end, ok := elbowEnd(te, g[n-1], g[n-2])
		if !ok {
			return path{}, "/endElementId", "the arrow's last segment must run into its end element, from outside it (or leave out points to have it routed)"
		}
		g[n-1] = end
	}
	out := path{origin: g[0], rel: make([]geom.Vec, len(g))}
	for i, q := range g {
		out.rel[i] = tidy(q).Sub(tidy(g[0]))
	}
	out.origin = tidy(g[0])
	return out, "", ""
}

// elbowEnd moves end along the segment from adjacent to where that line
// first comes elbowGap from t's outline; false when adjacent is that
// close already, or the line passes the shape by.
func elbowEnd(t *bindTarget, end, adjacent geom.Vec) (geom.Vec, bool) {
	h := halo{poly: t.poly, gap: elbowGap}
	dir := end.Sub(adjacent).Unit()
	if dir == (geom.Vec{}) || h.contains(adjacent) {
		return geom.Vec{}, false
	}
	reach := reachFor(t.poly, adjacent, elbowGap) + adjacent.Dist(end)
	p, ok := h.enter(adjacent, dir, reach)
	if !ok {
		return geom.Vec{}, false
	}
	// Keep the segment exactly axis-aligned.
	if dir.X == 0 {
		p.X = adjacent.X
	} else {
		p.Y = adjacent.Y
	}
	return p, true
}

// simplifyOrthogonal drops repeated points. Points in a line are kept:
// they set where Excalidraw puts the arrow's label (on its middle point),
// which a drawing uses.
func simplifyOrthogonal(g []geom.Vec) []geom.Vec {
	out := make([]geom.Vec, 0, len(g))
	for _, q := range g {
		if n := len(out); n > 0 && out[n-1].Equal(q) {
			continue
		}
		out = append(out, q)
	}
	return out
}

// elbowBinding is the binding of an elbow end at p: 0.18.1's
// {elementId, focus 0, gap 0, fixedPoint}, with mode "orbit" for current
// Excalidraw, which keeps the end where it is.
func (t *bindTarget) elbowBinding(p geom.Vec) *ojson.Object {
	s := t.shape
	fx, fy := 0.5, 0.5
	if s.W > 0 && s.H > 0 {
		q := geom.Rotate(p, s.Center(), -s.Angle)
		fx, fy = (q.X-s.X)/s.W, (q.Y-s.Y)/s.H
	}
	fx, fy = normalizeFixedPoint(fx, fy)
	return ojson.New().
		Set("elementId", t.id).
		Set("focus", 0).
		Set("gap", 0).
		Set("fixedPoint", []any{fx, fy}).
		Set("mode", "orbit")
}

// fixedSegmentsOf lists p's inner segments (1-based index k is from point
// k−1 to point k), the ones a route of ours asks the editor to keep; nil
// for a path of fewer than three segments, which the editor routes as
// well itself.
func fixedSegmentsOf(p path) any {
	n := len(p.rel)
	if n < 4 {
		return nil
	}
	out := make([]any, 0, n-3)
	for k := 2; k <= n-2; k++ {
		a, b := p.rel[k-1], p.rel[k]
		out = append(out, ojson.New().
			Set("start", []any{jsNum(a.X), jsNum(a.Y)}).
			Set("end", []any{jsNum(b.X), jsNum(b.Y)}).
			Set("index", k))
	}
	return out
}

// elbowFields writes what an elbow arrow has beyond an arrow's fields.
func elbowFields(el *ojson.Object, p path) {
	fs := fixedSegmentsOf(p)
	el.Set("elbowed", true).Set("fixedSegments", fs)
	if fs == nil {
		el.Set("startIsSpecial", nil).Set("endIsSpecial", nil)
		return
	}
	el.Set("startIsSpecial", false).Set("endIsSpecial", false)
}

// obstacles are the boxes elbow arrows are routed around: every shape,
// free text, image and embed of the scene and of this call but frames
// (which hold others), by id.
func (b *builder) obstacles() map[string]geom.Rect {
	out := map[string]geom.Rect{}
	for _, el := range b.sc.byID.All() {
		addObstacle(out, el)
	}
	for _, m := range b.made {
		if m.Type != "arrow" {
			addObstacle(out, m.el)
		}
	}
	return out
}

// addObstacle adds el's box to out when el is a live shape, free text,
// image or embed.
func addObstacle(out map[string]geom.Rect, el *ojson.Object) {
	if el == nil {
		return
	}
	if deleted, _ := el.Bool("isDeleted"); deleted {
		return
	}
	t, _ := el.String("type")
	switch t {
	case "rectangle", "ellipse", "diamond", "image", "embeddable", "iframe":
	case "text":
		if c, ok := el.String("containerId"); ok && c != "" {
			return
		}
	default:
		return
	}
	s, _ := shapeOf(el)
	id, _ := el.String("id")
	out[id] = geom.BoundsOf(s.Outline())
}

// Reroute routes the elbow arrows again between the elements their ends
// are bound to, around every other shape of elements (the whole scene,
// arrows included), as Build routes a new one, and writes each one's
// points, size, bindings and fixed segments in place. An arrow not bound
// at both ends to live elements of the scene is left as it is. It
// returns the ids of the arrows it routed, in order; the caller bumps
// them and lays their labels out again.
func Reroute(elements []*ojson.Object, arrows []*ojson.Object) ([]string, error) {
	byID := make(map[string]*ojson.Object, len(elements))
	boxes := map[string]geom.Rect{}
	for _, el := range elements {
		id, _ := el.String("id")
		if _, dup := byID[id]; !dup {
			byID[id] = el
		}
		addObstacle(boxes, el)
	}
	type job struct {
		a          *ojson.Object
		id, s, e   string
		start, end *bindTarget
	}
	var jobs []job
	ends := map[string]bool{}
	for _, a := range arrows {
		s, e := boundID(a, "startBinding"), boundID(a, "endBinding")
		if s == "" || e == "" || byID[s] == nil || byID[e] == nil {
			continue
		}
		if _, ok := boxes[s]; !ok {
			continue
		}
		if _, ok := boxes[e]; !ok {
			continue
		}
		id, _ := a.String("id")
		target := func(tid string) *bindTarget {
			el := byID[tid]
			sh, sw := shapeOf(el)
			return newBindTarget(tid, sh, sw, el)
		}
		jobs = append(jobs, job{a: a, id: id, s: s, e: e, start: target(s), end: target(e)})
		ends[s], ends[e] = true, true
	}
	if len(jobs) == 0 {
		return nil, nil
	}
	for id, r := range boxes {
		if ends[id] {
			continue
		}
		for e := range ends {
			if r.Overlaps(boxes[e]) {
				delete(boxes, id)
				break
			}
		}
	}
	corners, tips := map[string]float64{}, map[string]bool{}
	edges := make([]route.Edge, len(jobs))
	for i, j := range jobs {
		corners[j.s], corners[j.e] = cornerOf(byID[j.s]), cornerOf(byID[j.e])
		tips[j.s], tips[j.e] = tipsOnly(byID[j.s]), tipsOnly(byID[j.e])
		edges[i] = route.Edge{ID: j.id, From: j.s, To: j.e}
	}
	paths, err := route.Route(boxes, edges, route.Options{Corners: corners, Tips: tips})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(jobs))
	for i, j := range jobs {
		pts := paths[i].Points
		in := path{origin: pts[0], rel: make([]geom.Vec, len(pts))}
		for k, q := range pts {
			in.rel[k] = q.Sub(pts[0])
		}
		p, _, msg := elbowPath(in, j.start, j.end)
		if msg != "" {
			continue // a route the ends cannot take: the arrow stays as it is
		}
		w, h := p.size()
		j.a.Set("x", jsNum(p.origin.X)).Set("y", jsNum(p.origin.Y)).
			Set("width", jsNum(w)).Set("height", jsNum(h)).
			Set("points", p.pointsValue()).
			Set("startBinding", j.start.elbowBinding(p.global(0))).
			Set("endBinding", j.end.elbowBinding(p.global(len(p.rel)-1)))
		elbowFields(j.a, p)
		out = append(out, j.id)
	}
	return out, nil
}

// boundID is the elementId of an arrow's binding key, "" when unbound.
func boundID(a *ojson.Object, key string) string {
	b, ok := a.Object(key)
	if !ok {
		return ""
	}
	id, _ := b.String("elementId")
	return id
}

// tipsOnly reports whether routes should end at the middle of el's sides
// (a diamond's tips, an ellipse's axis ends), where the editor keeps an
// elbow end's heading when it re-routes it.
func tipsOnly(el *ojson.Object) bool {
	t, _ := el.String("type")
	return t == "diamond" || t == "ellipse"
}

// cornerOf is the radius of a shape's rounded corners (0 sharp), for the
// router to keep ends off them.
func cornerOf(el *ojson.Object) float64 {
	s, _ := shapeOf(el)
	if s.Type != "rectangle" && s.Type != "image" {
		return 0
	}
	return geom.CornerRadius(math.Min(s.W, s.H), s.Roundness)
}

// routeElbows routes, in one pass, every elbow arrow of the call bound at
// both ends and given no path: around every obstacle but its own two
// shapes and the shapes that overlap them (a container, a label).
func (b *builder) routeElbows() error {
	var todo []*made
	for _, m := range b.made {
		if m.Type == "arrow" && orBool(m.Elbowed, false) && m.start != "" && m.end != "" &&
			m.Points == nil && m.Width == nil && m.Height == nil {
			todo = append(todo, m)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	boxes := b.obstacles()
	ends := map[string]bool{}
	for _, m := range todo {
		ends[m.start], ends[m.end] = true, true
	}
	// A box that overlaps an end's box (its container, or one inside it)
	// is no obstacle: routes could not leave the end.
	for id, r := range boxes {
		if ends[id] {
			continue
		}
		for e := range ends {
			if er, ok := boxes[e]; ok && r.Overlaps(er) {
				delete(boxes, id)
				break
			}
		}
	}
	corners, tips := map[string]float64{}, map[string]bool{}
	edges := make([]route.Edge, 0, len(todo))
	for _, m := range todo {
		for _, id := range []string{m.start, m.end} {
			if _, ok := boxes[id]; !ok {
				s, _ := shapeOf(b.target(id).el)
				boxes[id] = geom.BoundsOf(s.Outline())
			}
			corners[id], tips[id] = cornerOf(b.target(id).el), tipsOnly(b.target(id).el)
		}
		edges = append(edges, route.Edge{ID: m.id, From: m.start, To: m.end})
	}
	paths, err := route.Route(boxes, edges, route.Options{Corners: corners, Tips: tips})
	if err != nil {
		return badInput(todo[0].index, "", "%v", err)
	}
	for i, m := range todo {
		m.route = paths[i].Points
	}
	return nil
}
