package service

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// followArrows moves the ends of the arrows bound to target by d (the
// move of target's centre): the bound end moves, the other stays; an
// arrow bound to target at both ends moves whole. The arrows' labels are
// re-centred. Bindings themselves (focus, gap) are kept.
func (e *edit) followArrows(target *ojson.Object, d point) {
	id := strOf(target, "id")
	list, _ := target.Array("boundElements")
	for _, entry := range list {
		o, ok := entry.(*ojson.Object)
		if !ok || strOf(o, "type") != "arrow" {
			continue
		}
		a := e.byID[strOf(o, "id")]
		if a == nil || deleted(a) || a == target {
			continue
		}
		if e.moveArrowEnds(a, id, d) {
			e.bump(a)
			if l := e.labelOf(a); l != nil {
				placeLabel(a, l)
				e.bump(l)
			}
		}
	}
}

// moveArrowEnds moves the ends of a bound to id; it reports a change.
func (e *edit) moveArrowEnds(a *ojson.Object, id string, d point) bool {
	start := bindingTarget(a, "startBinding") == id
	end := bindingTarget(a, "endBinding") == id
	pts := pointsOf(a)
	if len(pts) < 2 || (!start && !end) {
		return false
	}
	if start && end {
		a.Set("x", num(a, "x")+d[0])
		a.Set("y", num(a, "y")+d[1])
		return true
	}
	i := 0
	if end {
		i = len(pts) - 1
	}
	if elbowed, _ := a.Bool("elbowed"); elbowed && len(pts) >= 3 {
		keepElbow(pts, i, d)
	}
	pts[i] = point{pts[i][0] + d[0], pts[i][1] + d[1]}
	setPoints(a, pts)
	return true
}

// keepElbow moves the neighbour of end point i of an elbow arrow across
// the end segment, so that the segment stays axis-aligned and, as elbow
// segments alternate, so does the next one: the route keeps its shape
// instead of gaining a diagonal that only the editor could re-route.
func keepElbow(pts []point, i int, d point) {
	j := 1
	if i > 0 {
		j = i - 1
	}
	if pts[i][1] == pts[j][1] { // horizontal end segment
		pts[j][1] += d[1]
		return
	}
	pts[j][0] += d[0]
}

func bindingTarget(a *ojson.Object, k string) string {
	b, ok := a.Object(k)
	if !ok {
		return ""
	}
	return strOf(b, "elementId")
}
