package lint

import (
	"math"

	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// linearScoped reports whether a per-element rule should look at a linear
// element: in scope itself or through its label.
func (s *scene) linearScoped(e *el) bool {
	if s.inScope(e.id) {
		return true
	}
	l := s.labelOf(e)
	return l != nil && s.inScope(l.id)
}

// isZeroLength: every point within minLinearLength of the first.
func isZeroLength(e *el) bool { return e.zero }

// pointsCoincide reports whether every point is within minLinearLength of the
// first (pts is not empty).
func pointsCoincide(pts []geom.Vec) bool {
	for _, p := range pts[1:] {
		if p.Sub(pts[0]).Len() >= minLinearLength {
			return false
		}
	}
	return true
}

// zeroLength: arrows and lines with nothing to draw.
func (s *scene) zeroLength() {
	for _, e := range s.els {
		if !model.IsLinear(e.typ) || e.pts == nil || !e.finite || !s.linearScoped(e) || !isZeroLength(e) {
			continue
		}
		ids := []string{e.id}
		if l := s.labelOf(e); l != nil {
			ids = append(ids, l.id)
		}
		s.report(CodeZeroLength, ids, map[string]any{"action": "delete", "id": e.id},
			"%s has no length: all its points are at (%g, %g)", s.name(e), round2(e.pts[0].X), round2(e.pts[0].Y))
	}
}

// bindable: what an arrow end binds to in Excalidraw 0.18.1 (frames
// aside: their border is where children sit, not a target).
func (s *scene) bindable(e *el) bool {
	if e.w <= 0 || e.h <= 0 {
		return false
	}
	return isBoxShape(e.typ) || (e.typ == "text" && e.container == "")
}

// drawnArrow: an arrow with a usable path of some length.
func drawnArrow(e *el) bool {
	return e.typ == "arrow" && e.finite && len(e.pts) >= 2 && !isZeroLength(e)
}

// unboundArrowEnds: arrow ends left beside a shape instead of bound to
// it. A near miss, as alignment is: with Options.Touched, only an end of a
// touched arrow, or one beside a touched shape.
func (s *scene) unboundArrowEnds() {
	touched := func(id string) bool { return s.opts.Touched == nil || s.opts.Touched[id] }
	for _, e := range s.subjects() {
		i := e.idx
		if !drawnArrow(e) || !s.subject(i) {
			continue
		}
		for _, end := range [...]struct {
			name  string
			p     geom.Vec
			bound bool
		}{{"start", e.pts[0], e.hasStart}, {"end", e.pts[len(e.pts)-1], e.hasEnd}} {
			if end.bound {
				continue
			}
			var best *el
			bestD, bestIn := math.Inf(1), false
			s.query(geom.R(end.p.X, end.p.Y, end.p.X, end.p.Y).Expand(bindingDistanceMax), s.bindable, func(t *el) {
				if !touched(e.id) && !touched(t.id) {
					return
				}
				d, in := geom.BoundaryDistance(t.outline(), end.p)
				if d > bindingDistance(t.typ, t.w, t.h) {
					return
				}
				if best == nil || d < bestD || (d == bestD && t.z > best.z) {
					best, bestD, bestIn = t, d, in
				}
			})
			if best == nil {
				continue
			}
			where := "outside"
			if bestIn {
				where = "inside"
			}
			s.report(CodeUnboundArrowEnd, []string{e.id, best.id},
				map[string]any{"action": "bind", "arrow": e.id, "end": end.name, "target": best.id},
				"the %s of %s is %g px %s the outline of %s but not bound to it", end.name, s.name(e), round2(bestD), where, s.name(best))
		}
	}
}

// arrowsThroughShapes: arrows drawn across shapes they do not connect,
// judged on the drawn path (a curved arrow's curve, not the straight
// segments between its points).
func (s *scene) arrowsThroughShapes() {
	for _, e := range s.subjects() {
		i := e.idx
		if !drawnArrow(e) || !s.subject(i) {
			continue
		}
		path := e.path()
		first, last := path[0], path[len(path)-1]
		s.query(geom.BoundsOf(path), overlapEligible, func(t *el) {
			if e.bindsTo(t.id) || sameGroup(e, t) {
				return
			}
			poly := t.outline()
			if _, in := geom.BoundaryDistance(poly, first); in {
				return // starts in it (a panel, a zone)
			}
			if _, in := geom.BoundaryDistance(poly, last); in {
				return
			}
			for k := 1; k < len(path); k++ {
				if geom.SegmentEnters(poly, path[k-1], path[k], crossingInset) {
					s.report(CodeArrowThroughShape, []string{e.id, t.id}, nil,
						"%s passes through %s, which it does not connect", s.name(e), s.name(t))
					return
				}
			}
		})
	}
}
