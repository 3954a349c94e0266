package build

import (
	"math"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// focusDistance is 0.18.1's `focus` of a binding (determineFocusDistance
// in binding.ts): where the arrow's last segment, from adjacent (a) to
// the bound end (b), would cross the target, as a signed fraction of the
// target's half-diagonal. 0 means the line runs through the centre. When
// the target moves, 0.18.1 re-aims the end through the point with this
// focus, so it must agree with the points the builder writes or the
// arrow jumps on the first edit. The computation follows Excalidraw's,
// including its use of the unrotated `a` in the side test.
func focusDistance(s geom.Shape, a, b geom.Vec) float64 {
	if a.Equal(b) {
		return 0
	}
	c := s.Center()
	ra, rb := geom.Rotate(a, c, -s.Angle), geom.Rotate(b, c, -s.Angle)
	side := -sign(rb.Sub(a).Cross(rb.Sub(c)))
	reach := math.Max(s.W*2, s.H*2)
	interceptor := [2]geom.Vec{rb, rb.Add(rb.Sub(ra).Unit().Scale(reach))}

	x, y, w, h := s.X, s.Y, s.W, s.H
	var lines [2][2]geom.Vec // the lines the interceptor is measured on
	var norms [2]float64
	if s.Type == "diamond" {
		lines = [2][2]geom.Vec{
			{geom.V(x+w/2, y-h), geom.V(x+w/2, y+h*2)},
			{geom.V(x-w, y+h/2), geom.V(x+w*2, y+h/2)},
		}
		norms = [2]float64{h / 2, w / 2}
	} else {
		lines = [2][2]geom.Vec{
			{geom.V(x-w, y-h), geom.V(x+w*2, y+h*2)},
			{geom.V(x+w*2, y-h), geom.V(x-w, y+h*2)},
		}
		half := math.Hypot(w, h) / 2
		norms = [2]float64{half, half}
	}
	var hits []geom.Vec
	for _, l := range lines {
		if p, ok := geom.SegmentIntersection(interceptor[0], interceptor[1], l[0], l[1]); ok {
			hits = append(hits, p)
		}
	}
	// Excalidraw pairs the hits, nearest to b first, with the axes in
	// order, then keeps the smallest ratio.
	slices.SortStableFunc(hits, func(p, q geom.Vec) int {
		return cmpFloat(p.Sub(b).Dot(p.Sub(b)), q.Sub(b).Dot(q.Sub(b)))
	})
	best, found := 0.0, false
	for i, p := range hits {
		if norms[i] == 0 {
			continue
		}
		r := side * c.Dist(p) / norms[i]
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
