package build

import (
	"math"
	"slices"
)

// focusDistance is 0.18.1's `focus` of a binding (determineFocusDistance
// in binding.ts): where the arrow's last segment, from adjacent (a) to
// the bound end (b), would cross the target, as a signed fraction of the
// target's half-diagonal. 0 means the line runs through the centre. When
// the target moves, 0.18.1 re-aims the end through the point with this
// focus, so it must agree with the points the builder writes or the
// arrow jumps on the first edit. The computation follows Excalidraw's,
// including its use of the unrotated `a` in the side test.
func focusDistance(s shape, a, b vec) float64 {
	if a.equal(b) {
		return 0
	}
	c := s.center()
	ra, rb := rotate(a, c, -s.angle), rotate(b, c, -s.angle)
	side := -sign(rb.sub(a).cross(rb.sub(c)))
	reach := math.Max(s.w*2, s.h*2)
	interceptor := [2]vec{rb, rb.add(rb.sub(ra).unit().scale(reach))}

	x, y, w, h := s.x, s.y, s.w, s.h
	var lines [2][2]vec // the lines the interceptor is measured on
	var norms [2]float64
	if s.typ == "diamond" {
		lines = [2][2]vec{
			{{x + w/2, y - h}, {x + w/2, y + h*2}},
			{{x - w, y + h/2}, {x + w*2, y + h/2}},
		}
		norms = [2]float64{h / 2, w / 2}
	} else {
		lines = [2][2]vec{
			{{x - w, y - h}, {x + w*2, y + h*2}},
			{{x + w*2, y - h}, {x - w, y + h*2}},
		}
		half := math.Hypot(w, h) / 2
		norms = [2]float64{half, half}
	}
	var hits []vec
	for _, l := range lines {
		if p, ok := segmentIntersection(interceptor[0], interceptor[1], l[0], l[1]); ok {
			hits = append(hits, p)
		}
	}
	// Excalidraw pairs the hits, nearest to b first, with the axes in
	// order, then keeps the smallest ratio.
	slices.SortStableFunc(hits, func(p, q vec) int {
		return cmpFloat(p.sub(b).dot(p.sub(b)), q.sub(b).dot(q.sub(b)))
	})
	best, found := 0.0, false
	for i, p := range hits {
		if norms[i] == 0 {
			continue
		}
		r := side * c.dist(p) / norms[i]
		if !found || math.Abs(r) < math.Abs(best) {
			best, found = r, true
		}
	}
	return jsNum(best)
}

func sign(f float64) float64 {
	switch {
	case f > 0:
		return 1
	case f < 0:
		return -1
	}
	return 0
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
