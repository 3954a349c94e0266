package scene

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// fixElbowArrows is restore's last step for elbow arrows: an unbound one
// whose segments are not all axis-aligned is re-routed (rerouteElbow);
// one bound at both ends to one element whose points run past ±1e6 (left
// by older editors) is redrawn as a loop off the top of that element, its
// size then taken from the new points, as the next restore would.
func (n *normalizer) fixElbowArrows() {
	var byID map[string]int
	for i, el := range n.els {
		if !n.visible[i] || el.Frozen() { // both checks read el alone: a sealed element passed them
			continue
		}
		if unboundCrookedElbow(el) {
			rerouteElbow(elemFix{n: n, i: i, el: el})
			continue
		}
		if !selfBoundRunaway(el) {
			continue
		}
		if byID == nil {
			byID = n.visibleByID()
		}
		sb, _ := el.Object("startBinding")
		tid, _ := sb.String("elementId")
		j, ok := byID[tid]
		if !ok {
			continue
		}
		t := n.els[j]
		tx, _ := finite(t, "x")
		ty, _ := finite(t, "y")
		tw, _ := finite(t, "width")
		th, _ := finite(t, "height")
		pts := [][2]float64{{0, 0}, {0, -10}, {tw/2 + 5, -10}, {tw/2 + 5, th/2 + 5}}
		w, h := sizeOfPoints(pts)
		f := elemFix{n: n, i: i, el: el}
		f.set("x", jsNumber(tx+tw/2), FixPoints)
		f.set("y", jsNumber(ty-5), FixPoints)
		f.set("width", jsNumber(w), FixPoints)
		f.set("height", jsNumber(h), FixPoints)
		f.set("points", pointValues(pts), FixPoints)
	}
}

// selfBoundRunaway: an elbow arrow bound at both ends to the same element
// with a point beyond ±1e6.
func selfBoundRunaway(el *ojson.Object) bool {
	if !isElbow(el) {
		return false
	}
	sb, ok1 := el.Object("startBinding")
	eb, ok2 := el.Object("endBinding")
	if !ok1 || !ok2 {
		return false
	}
	s, _ := sb.String("elementId")
	e, _ := eb.String("elementId")
	if s == "" || s != e {
		return false
	}
	raw, _ := el.Array("points")
	pts, ok := readPoints(raw)
	if !ok || len(pts) < 2 {
		return false
	}
	for _, p := range pts {
		if math.Abs(p[0]) > 1e6 || math.Abs(p[1]) > 1e6 {
			return true
		}
	}
	return false
}

// isElbow: an arrow with a truthy elbowed.
func isElbow(el *ojson.Object) bool {
	return elementType(el) == "arrow" && !jsFalsy(el.Get("elbowed"))
}

// unboundCrookedElbow: an elbow arrow bound at neither end with a segment
// that is not axis-aligned, which restore re-routes.
func unboundCrookedElbow(el *ojson.Object) bool {
	if !isElbow(el) || !jsNullish(el.Get("startBinding")) || !jsNullish(el.Get("endBinding")) {
		return false
	}
	raw, _ := el.Array("points")
	pts, ok := readPoints(raw)
	return ok && !axisAligned(pts)
}

// axisAligned is validateElbowPoints: every segment within a pixel of
// horizontal or vertical.
func axisAligned(pts [][2]float64) bool {
	for k := 1; k < len(pts); k++ {
		if math.Abs(pts[k][0]-pts[k-1][0]) >= 1 && math.Abs(pts[k][1]-pts[k-1][1]) >= 1 {
			return false
		}
	}
	return true
}

// rerouteElbow routes an unbound elbow arrow from its start to its last
// point the way Excalidraw's router does when nothing is bound: along the
// dominant axis to half way, across, and on to the end (three segments);
// it clears fixedSegments, startIsSpecial and endIsSpecial, as the router
// does. Where neither axis dominates the router takes a detour this does
// not reproduce; the horizontal-first route taken instead is as valid, and
// restore leaves it alone.
func rerouteElbow(f elemFix) {
	raw, _ := f.el.Array("points")
	pts, _ := readPoints(raw)
	end := pts[len(pts)-1]
	ex, ey := end[0]-pts[0][0], end[1]-pts[0][1]
	route := [][2]float64{{0, 0}, {ex / 2, 0}, {ex / 2, ey}, {ex, ey}}
	if math.Abs(ey) > math.Abs(ex) {
		route = [][2]float64{{0, 0}, {0, ey / 2}, {ex, ey / 2}, {ex, ey}}
	}
	w, h := sizeOfPoints(route)
	f.set("points", pointValues(route), FixPoints)
	f.set("width", jsNumber(w), FixPoints)
	f.set("height", jsNumber(h), FixPoints)
	for _, k := range []string{"fixedSegments", "startIsSpecial", "endIsSpecial"} {
		f.set(k, nil, FixPoints)
	}
}
