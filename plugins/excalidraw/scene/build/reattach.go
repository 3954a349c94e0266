package build

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// This file opens the builder's binding geometry to editors of existing
// elements: when an element that arrows are bound to moves, is resized
// or rotated, the service re-attaches the arrows' bound ends with the same
// outline, snap and binding rules the builder attaches new arrows by.

// Point is a point in scene coordinates, [x, y].
type Point = [2]float64

func vecOf(p Point) geom.Vec   { return geom.V(p[0], p[1]) }
func pointOf(a geom.Vec) Point { return Point{a.X, a.Y} }

// Target is an existing element as the arrow ends bound to it see it: its
// outline, as the builder draws it, and the gap bound ends keep outside
// it.
type Target struct{ t *bindTarget }

// TargetOf reads an element's geometry (type, box, rotation, corners and
// stroke width).
func TargetOf(el *ojson.Object) Target {
	id, _ := el.String("id")
	s, sw := shapeOf(el)
	return Target{newBindTarget(id, s, sw, el)}
}

// SameOutline reports whether the ends of arrows bound to a and to b sit
// in the same places: same type, box, rotation and corners, and the same
// gap. It computes no outline.
func SameOutline(a, b *ojson.Object) bool {
	sa, wa := shapeOf(a)
	sb, wb := shapeOf(b)
	return sa == sb && bindingGap(wa) == bindingGap(wb)
}

// Offset reports whether u is t moved, with its shape, size, rotation and
// gap unchanged, and by how much.
func (t Target) Offset(u Target) (Point, bool) {
	a, b := t.t.shape, u.t.shape
	d := Point{b.X - a.X, b.Y - a.Y}
	a.X, a.Y = b.X, b.Y
	if a != b || t.t.gap() != u.t.gap() {
		return Point{}, false
	}
	return d, true
}

// Carry maps p, a point attached to t, to the same place attached to u:
// the same fractions of the element's unrotated box (what fixedPoint
// measures), through any move, resize or rotation.
func (t Target) Carry(u Target, p Point) Point {
	rx, ry := t.t.shape.Ratio(vecOf(p))
	return pointOf(u.t.shape.At(rx, ry))
}

// Snap is where an arrow end at edge, whose neighbouring point is
// adjacent, attaches to the target: the builder's snapEnd, the first
// point on the arrow's line from adjacent towards edge that is the
// binding gap outside the outline.
func (t Target) Snap(edge, adjacent Point) Point {
	return pointOf(snapEnd(t.t, vecOf(edge), vecOf(adjacent)))
}

// Reattach is where the end of an arrow bound to a target goes when the
// target changes from t to u (moved, resized, rotated), the arrow's
// neighbouring point adjacent staying put: the end keeps its place
// relative to the target (Carry) and is snapped along the arrow's line
// from adjacent onto u's outline (Snap). If that line would only graze
// u, passing its gap but not the shape, the end aims instead at the point
// inside the target its line aimed at through t, carried to u, so that
// the arrow still points into the shape.
func Reattach(t, u Target, end, adjacent Point) Point {
	e, adj := vecOf(end), vecOf(adjacent)
	q := snapEnd(u.t, vecOf(t.Carry(u, end)), adj)
	if u.t.halo().contains(adj) || u.t.pierces(adj, q) {
		return pointOf(q)
	}
	aim := t.Carry(u, pointOf(t.t.aimPoint(e, adj)))
	return pointOf(snapEnd(u.t, vecOf(aim), adj))
}

// pierces reports whether the line from adjacent through edge enters the
// target's shape itself, not only the gap around it.
func (t *bindTarget) pierces(adjacent, edge geom.Vec) bool {
	dir := edge.Sub(adjacent).Unit()
	if dir == (geom.Vec{}) {
		return false
	}
	reach := reachFor(t.poly, adjacent, 0) + adjacent.Dist(edge)
	_, ok := halo{poly: t.poly}.enter(adjacent, dir, reach)
	return ok
}

// SnapAlong is where the line through p running in heading (towards the
// target) first comes the binding gap near the outline; Snap's rules
// apply, so a line that misses the target aims at its centre. Elbow
// arrows attach this way: an axis-aligned end segment stays on its axis.
func (t Target) SnapAlong(p, heading Point) Point {
	at, dir := vecOf(p), vecOf(heading).Unit()
	if dir == (geom.Vec{}) {
		dir = t.t.shape.Center().Sub(at).Unit()
	}
	from := at.Sub(dir.Scale(reachFor(t.t.poly, at, t.t.gap())))
	return pointOf(snapEnd(t.t, at, from))
}

// Binding is the startBinding/endBinding the builder writes for an end at
// edge, whose neighbouring point is adjacent, bound to the target: its
// id, the focus 0.18.1 re-aims the end by, the gap, and the fixedPoint
// current Excalidraw keeps the end on the line towards.
func (t Target) Binding(edge, adjacent Point) *ojson.Object {
	return t.t.bindingValue(vecOf(edge), vecOf(adjacent), false)
}

// FixedPoint is p as fractions of the target's unrotated box, normalised
// as Excalidraw normalises a fixedPoint: where 0.18.1 puts the end of an
// elbow arrow bound to the target.
func (t Target) FixedPoint(p Point) [2]float64 {
	x, y := t.t.fixedPoint(vecOf(p))
	return [2]float64{x, y}
}
