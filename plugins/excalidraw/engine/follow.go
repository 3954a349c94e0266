package engine

import (
	"math"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// follow re-attaches the arrows bound to el when an update changed the
// outline they attach to (before is el as it was). Lines and arrows are
// not targets; an element whose outline is unchanged leaves its arrows
// alone.
func (tx *Txn) follow(before, el *ojson.Object) {
	if scene.IsLinear(scene.StringOf(el, "type")) || build.SameOutline(before, el) {
		return
	}
	tx.followArrows(before, el)
}

// followArrows re-attaches the ends of the arrows bound to target, whose
// outline changed from before's, with the geometry the builder attaches
// new arrows by (build.Target):
//
//   - a bound end keeps its place relative to the shape (the same
//     fractions of its box, so it moves, stretches and turns with it) and
//     is then snapped along the arrow's own line, from its neighbouring
//     point, onto the new outline, the builder's binding gap outside it
//     (build.Reattach). The other end and the inner points stay where
//     they are, and the bindings of the ends whose segment changed are
//     written anew (focus, gap, fixedPoint), as the builder writes them;
//   - an arrow bound at both ends to target moves with it whole when it
//     only moved; when it changed shape every point keeps its place
//     relative to the shape and the ends are snapped;
//   - an elbow arrow's end moves with the shape when it only moved, and
//     otherwise is snapped along its end segment, whose neighbour moves
//     with it so that every segment stays axis-aligned; its fixedPoint
//     (where 0.18.1 puts an elbow end) follows the end. The route is kept
//     here; a move then routes it again around every shape
//     (rerouteFollowers), where an update's change of size leaves it.
//
// The arrows' labels are laid out again on their new points.
func (tx *Txn) followArrows(before, target *ojson.Object) {
	id := scene.StringOf(target, "id")
	from, to := build.TargetOf(before), build.TargetOf(target)
	list, _ := target.Array("boundElements")
	for _, entry := range list {
		o, ok := entry.(*ojson.Object)
		if !ok || scene.StringOf(o, "type") != "arrow" {
			continue
		}
		a := tx.byID.Get(scene.StringOf(o, "id"))
		if a == nil || scene.IsDeleted(a) || a == target {
			continue
		}
		if tx.reattach(a, id, from, to) {
			tx.bump(a)
			if l := tx.labelOf(a); l != nil {
				layoutLabel(a, l)
				tx.bump(l)
			}
		}
	}
}

// reattach moves the ends of a bound to id from target geometry from to
// to (see followArrows); it reports a change.
func (tx *Txn) reattach(a *ojson.Object, id string, from, to build.Target) bool {
	start := bindingTarget(a, "startBinding") == id
	end := bindingTarget(a, "endBinding") == id
	pts := globalPoints(a)
	n := len(pts)
	if n < 2 || (!start && !end) {
		return false
	}
	d, moved := from.Offset(to)
	if start && end && moved {
		a.Set("x", scene.NumberOf(a, "x")+d[0])
		a.Set("y", scene.NumberOf(a, "y")+d[1])
		return true
	}
	was := slices.Clone(pts)
	both := start && end
	if both { // changed shape: the whole arrow keeps its place relative to it
		for i := range pts {
			pts[i] = from.Carry(to, pts[i])
		}
	}
	elbowed, _ := a.Bool("elbowed")
	for _, i := range boundEnds(start, end, n) {
		j := neighbour(i, n)
		if !elbowed {
			if both { // carried already
				pts[i] = to.Snap(pts[i], pts[j])
			} else {
				pts[i] = build.Reattach(from, to, pts[i], pts[j])
			}
			continue
		}
		at := pts[i]
		if !both {
			at = from.Carry(to, at)
		}
		if !moved {
			at = to.SnapAlong(at, point{was[i][0] - was[j][0], was[i][1] - was[j][1]})
		}
		keepElbow(pts, i, at)
	}
	setGlobalPoints(a, pts)
	tx.rebind(a, was, pts, id, to, elbowed)
	return true
}

// rebind rewrites the bindings of a whose end segment changed from was to
// pts (global points): for a simple arrow the builder's binding for the
// end's new segment, for an elbow arrow the same binding with its
// fixedPoint at the end. id's geometry is to (the target being updated);
// other targets are read from the scene. A binding whose target is gone
// is left to the normalizer.
func (tx *Txn) rebind(a *ojson.Object, was, pts []point, id string, to build.Target, elbowed bool) {
	n := len(pts)
	for _, i := range []int{0, n - 1} {
		key := "startBinding"
		if i > 0 {
			key = "endBinding"
		}
		b, ok := a.Object(key)
		if !ok {
			continue
		}
		j := neighbour(i, n)
		if pts[i] == was[i] && (elbowed || pts[j] == was[j]) {
			continue
		}
		target := to
		if tid := scene.StringOf(b, "elementId"); tid != id {
			el := tx.byID.Get(tid)
			if el == nil || scene.IsDeleted(el) {
				continue
			}
			target = build.TargetOf(el)
		}
		if !elbowed {
			a.Set(key, target.Binding(pts[i], pts[j]))
			continue
		}
		fp := target.FixedPoint(pts[i])
		a.Set(key, b.Clone().Set("fixedPoint", []any{fp[0], fp[1]}))
	}
}

// boundEnds are the indices of the ends of an n-point arrow bound to the
// target: the start, the end or both.
func boundEnds(start, end bool, n int) []int {
	var out []int
	if start {
		out = append(out, 0)
	}
	if end {
		out = append(out, n-1)
	}
	return out
}

// neighbour is the point next to end point i of an n-point path.
func neighbour(i, n int) int {
	if i == 0 {
		return 1
	}
	return n - 2
}

// keepElbow moves end point i of an elbow arrow to q and its neighbour
// across the end segment with it, so that the segment stays
// axis-aligned and, as elbow segments alternate, so does the next one:
// the route keeps its shape instead of gaining a diagonal that only the
// editor could re-route. A two-point elbow arrow has no inner point to
// move, so only its end moves.
func keepElbow(pts []point, i int, q point) {
	if len(pts) >= 3 {
		j := neighbour(i, len(pts))
		if math.Abs(pts[i][1]-pts[j][1]) <= math.Abs(pts[i][0]-pts[j][0]) { // horizontal end segment
			pts[j][1] = q[1]
		} else {
			pts[j][0] = q[0]
		}
	}
	pts[i] = q
}

func bindingTarget(a *ojson.Object, k string) string {
	b, ok := a.Object(k)
	if !ok {
		return ""
	}
	return scene.StringOf(b, "elementId")
}
