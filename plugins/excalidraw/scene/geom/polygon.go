package geom

import "math"

// Polygons here are outlines as [Shape.Outline] returns them: convex,
// closed (the last point joins the first) and counter-clockwise in math
// terms, so that every edge's left-hand normal points inwards.

// SignedArea is the polygon's area, positive when it is
// counter-clockwise in math terms.
func SignedArea(poly []Vec) float64 {
	a := 0.0
	for i := range poly {
		a += poly[i].Cross(poly[(i+1)%len(poly)])
	}
	return a / 2
}

// BoundaryDistance is the distance from p to the boundary of a convex
// polygon, and whether p is inside it or on it (either orientation). It is
// the inner loop of every binding search and lint pass, so it works in
// squared distances and takes one square root at the end.
func BoundaryDistance(poly []Vec, p Vec) (float64, bool) {
	if len(poly) == 0 {
		return math.Inf(1), false
	}
	best := math.Inf(1)
	sign := 0.0
	inside := len(poly) >= 3
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		abx, aby := b.X-a.X, b.Y-a.Y
		apx, apy := p.X-a.X, p.Y-a.Y
		if c := abx*apy - aby*apx; c != 0 {
			if sign == 0 {
				sign = c
			} else if (c > 0) != (sign > 0) {
				inside = false
			}
		}
		l2 := abx*abx + aby*aby
		t := 0.0
		if l2 > 0 {
			t = max(0, min(1, (apx*abx+apy*aby)/l2))
		}
		dx, dy := apx-abx*t, apy-aby*t
		best = min(best, dx*dx+dy*dy)
	}
	return math.Sqrt(best), inside && sign != 0
}

// PolygonDistance is the distance from p to a convex polygon: 0 inside,
// the distance to its boundary outside.
func PolygonDistance(poly []Vec, p Vec) float64 {
	d, in := BoundaryDistance(poly, p)
	if in {
		return 0
	}
	return d
}

// SegmentEnters reports whether the segment a–b passes through the
// counter-clockwise polygon shrunk by inset on every side (Cyrus–Beck
// clipping against the polygon's half-planes moved inwards).
func SegmentEnters(poly []Vec, a, b Vec, inset float64) bool {
	if len(poly) < 3 {
		return false
	}
	d := b.Sub(a)
	t0, t1 := 0.0, 1.0
	for i := range poly {
		v, w := poly[i], poly[(i+1)%len(poly)]
		e := w.Sub(v)
		l := e.Len()
		if l == 0 {
			continue
		}
		n := Vec{X: -e.Y / l, Y: e.X / l} // inward for a counter-clockwise polygon
		num := n.Dot(a.Sub(v)) - inset
		den := n.Dot(d)
		if den == 0 {
			if num < 0 {
				return false
			}
			continue
		}
		t := -num / den
		if den > 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return t1-t0 > 1e-9
}

// PolylineLength is the length of a path.
func PolylineLength(ps []Vec) float64 {
	l := 0.0
	for i := 1; i < len(ps); i++ {
		l += ps[i].Sub(ps[i-1]).Len()
	}
	return l
}
