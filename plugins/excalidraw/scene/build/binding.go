package build

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Binding gap. Current Excalidraw keeps a bound end BASE_BINDING_GAP (5)
// plus half the target's stroke away from the target's outline; 0.18.1
// stores whatever gap the end had, and re-bases gaps above its smallest
// maxBindingGap (16) on the next edit. Using the current rule, capped so
// 0.18.1 never re-bases it, makes both versions draw the end where the
// builder put it.
const (
	bindingGapBase = 5
	maxStoredGap   = 16
)

// minBindableSize is current Excalidraw's MIN_BINDABLE_SIZE: below it a
// fixedPoint is the centre.
const minBindableSize = 1

// fixedPointBound is current Excalidraw's FIXED_POINT_BOUND.
const fixedPointBound = 10

// bindTarget is an element an arrow end binds to.
type bindTarget struct {
	id          string
	shape       geom.Shape
	strokeWidth float64
	el          *ojson.Object // the element whose boundElements gains the arrow
	poly        []geom.Vec    // outline, computed once
}

// newBindTarget wraps an element's geometry.
func newBindTarget(id string, s geom.Shape, strokeWidth float64, el *ojson.Object) *bindTarget {
	return &bindTarget{id: id, shape: s, strokeWidth: strokeWidth, el: el, poly: s.Outline()}
}

// gap is the distance a bound end keeps from the outline.
func (t *bindTarget) gap() float64 { return bindingGap(t.strokeWidth) }

// bindingGap is the gap for a target of this stroke width.
func bindingGap(strokeWidth float64) float64 {
	return math.Min(bindingGapBase+strokeWidth/2, maxStoredGap)
}

// halo is the region the arrow end stays out of.
func (t *bindTarget) halo() halo { return halo{poly: t.poly, gap: t.gap()} }

// bindingValue is the startBinding/endBinding object for an end at edge
// whose neighbouring point is adjacent.
//
// The shape is a superset that both Excalidraw generations read without
// loss:
//
//   - elementId, focus, gap: 0.18.1's PointBinding. Its restore keeps
//     every member of a binding (`{...binding, focus}`), and its editor
//     reads only these for simple arrows (fixedPoint is elbow-only there).
//   - fixedPoint, mode: current Excalidraw's FixedPointBinding. Its
//     restore keeps {elementId, mode, fixedPoint} whenever `mode` is
//     present, and only migrates bindings without it (from focus and the
//     arrow's points). mode "orbit" keeps the end outside the shape on the
//     line towards fixedPoint, which the builder picks on the arrow's own
//     line, so the end stays where it is.
func (t *bindTarget) bindingValue(edge, adjacent geom.Vec, centred bool) *ojson.Object {
	focus := 0.0
	aim := t.shape.Center()
	if !centred {
		focus = focusDistance(t.shape, adjacent, edge)
		aim = t.aimPoint(edge, adjacent)
	}
	fx, fy := t.fixedPoint(aim)
	return ojson.New().
		Set("elementId", t.id).
		Set("focus", jsNum(focus)).
		Set("gap", t.gap()).
		Set("fixedPoint", []any{fx, fy}).
		Set("mode", "orbit")
}

// aimPoint is a point of the target on the line from adjacent through
// edge: the middle of the chord the line cuts through the shape, which is
// safely inside it. A line that only grazes the halo aims at the centre.
func (t *bindTarget) aimPoint(edge, adjacent geom.Vec) geom.Vec {
	dir := edge.Sub(adjacent).Unit()
	if dir == (geom.Vec{}) {
		return t.shape.Center()
	}
	shapeOnly := halo{poly: t.poly}
	reach := reachFor(t.poly, adjacent, 0) + adjacent.Dist(edge)
	in, ok := shapeOnly.enter(adjacent, dir, reach)
	if !ok {
		return t.shape.Center()
	}
	far := in.Add(dir.Scale(reach))
	out, ok := shapeOnly.enter(far, dir.Scale(-1), reach)
	if !ok {
		return in
	}
	return in.Lerp(out, 0.5)
}

// fixedPoint is current Excalidraw's ratio of p within the target's
// unrotated box (calculateFixedPointForNonElbowArrowBinding), normalised
// as its restore normalises it.
func (t *bindTarget) fixedPoint(p geom.Vec) (float64, float64) {
	s := t.shape
	if s.W < minBindableSize || s.H < minBindableSize {
		return normalizeFixedPoint(0.5, 0.5)
	}
	floor := bindingGapBase + t.strokeWidth/2
	q := geom.Rotate(p, s.Center(), -s.Angle)
	return normalizeFixedPoint((q.X-s.X)/math.Max(s.W, floor), (q.Y-s.Y)/math.Max(s.H, floor))
}

// normalizeFixedPoint clamps ratios to ±10 and moves any within 1e-4 of
// one half to 0.5001, as Excalidraw does to keep arrow headings stable.
func normalizeFixedPoint(x, y float64) (float64, float64) {
	fix := func(r float64) float64 {
		r = math.Max(-fixedPointBound, math.Min(fixedPointBound, r))
		if math.Abs(r-0.5) < 1e-4 {
			return 0.5001
		}
		return jsNum(r)
	}
	return fix(x), fix(y)
}
