package rough

import "math"

// Curves to polygons, as the points-on-curve package does for rough.js:
// the beziers through a list of points, bezier flattening by halving, and
// Ramer–Douglas–Peucker simplification.

// curveToBezier is points-on-curve's curveToBezier with tightness 0: the
// cubic bezier chain (start, then three points per piece) of the curve
// through points, at least three of them.
func curveToBezier(points []Point) []Point {
	if len(points) == 3 {
		return []Point{points[0], points[1], points[2], points[2]}
	}
	ext := make([]Point, 0, len(points)+2)
	ext = append(ext, points[0], points[0])
	ext = append(ext, points[1:]...)
	ext = append(ext, points[len(points)-1])
	const t = 1 - 0.0
	out := []Point{ext[0]}
	for i := 1; i+2 < len(ext); i++ {
		prev, cur, next, after := ext[i-1], ext[i], ext[i+1], ext[i+2]
		out = append(out,
			Point{cur[0] + (float64(t*next[0])-float64(t*prev[0]))/6, cur[1] + (float64(t*next[1])-float64(t*prev[1]))/6},
			Point{next[0] + (float64(t*cur[0])-float64(t*after[0]))/6, next[1] + (float64(t*cur[1])-float64(t*after[1]))/6},
			next)
	}
	return out
}

func distanceSq(a, b Point) float64 {
	dx, dy := a[0]-b[0], a[1]-b[1]
	return float64(dx*dx) + float64(dy*dy)
}

func lerp(a, b Point, t float64) Point {
	return Point{a[0] + float64((b[0]-a[0])*t), a[1] + float64((b[1]-a[1])*t)}
}

// flatness measures how far a bezier's controls are from a straight line.
func flatness(p1, p2, p3, p4 Point) float64 {
	sq := func(v float64) float64 { return v * v }
	ux := sq(float64(3*p2[0]) - float64(2*p1[0]) - p4[0])
	uy := sq(float64(3*p2[1]) - float64(2*p1[1]) - p4[1])
	vx := sq(float64(3*p3[0]) - float64(2*p4[0]) - p1[0])
	vy := sq(float64(3*p3[1]) - float64(2*p4[1]) - p1[1])
	if ux < vx {
		ux = vx
	}
	if uy < vy {
		uy = vy
	}
	return ux + uy
}

// flattenBezier appends points along the bezier p1..p4, halving it until
// the pieces are flatter than tolerance. A piece's start is skipped when it
// is within 1 of the last point out.
func (s *state) flattenBezier(out polygon, p1, p2, p3, p4 Point, tolerance float64, depth int) polygon {
	if !s.spend(1) {
		return out
	}
	if depth > maxSplitDepth {
		s.call.work = -1
		return out
	}
	if flatness(p1, p2, p3, p4) < tolerance {
		if len(out) == 0 || math.Sqrt(distanceSq(*out[len(out)-1], p1)) > 1 {
			start := p1
			out = append(out, &start)
		}
		end := p4
		return append(out, &end)
	}
	q1, q2, q3 := lerp(p1, p2, 0.5), lerp(p2, p3, 0.5), lerp(p3, p4, 0.5)
	r1, r2 := lerp(q1, q2, 0.5), lerp(q2, q3, 0.5)
	mid := lerp(r1, r2, 0.5)
	out = s.flattenBezier(out, p1, q1, r1, mid, tolerance, depth+1)
	return s.flattenBezier(out, mid, r2, q3, p4, tolerance, depth+1)
}

// bezierPoints is points-on-curve's pointsOnBezierCurves: the points along
// a bezier chain, simplified to within distance when it is above 0.
func (s *state) bezierPoints(chain []Point, tolerance, distance float64) polygon {
	var out polygon
	for i := 0; i+3 < len(chain); i += 3 {
		out = s.flattenBezier(out, chain[i], chain[i+1], chain[i+2], chain[i+3], tolerance, 0)
	}
	if distance > 0 {
		return simplify(out, distance)
	}
	return out
}

// distanceToSegmentSq is the squared distance from p to the segment v–w.
func distanceToSegmentSq(p, v, w Point) float64 {
	l2 := distanceSq(v, w)
	if l2 == 0 {
		return distanceSq(p, v)
	}
	t := (float64((p[0]-v[0])*(w[0]-v[0])) + float64((p[1]-v[1])*(w[1]-v[1]))) / l2
	t = math.Max(0, math.Min(1, t))
	return distanceSq(p, lerp(v, w, t))
}

// simplify is points-on-curve's simplify (Ramer–Douglas–Peucker): the
// points of a polyline that keep it within epsilon, which must be above 0.
// The result shares the input's points; a single point comes out twice.
func simplify(points polygon, epsilon float64) polygon {
	var out polygon
	if len(points) == 0 {
		return out
	}
	// The recursion on ranges [start, end), left part first, unrolled.
	type span struct{ start, end int }
	stack := []span{{0, len(points)}}
	for len(stack) > 0 {
		sp := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		first, last := points[sp.start], points[sp.end-1]
		maxDistSq, maxAt := 0.0, 1
		for i := sp.start + 1; i < sp.end-1; i++ {
			if d := distanceToSegmentSq(*points[i], *first, *last); d > maxDistSq {
				maxDistSq, maxAt = d, i
			}
		}
		if math.Sqrt(maxDistSq) > epsilon {
			stack = append(stack, span{maxAt, sp.end}, span{sp.start, maxAt + 1})
			continue
		}
		if len(out) == 0 {
			out = append(out, first)
		}
		out = append(out, last)
	}
	return out
}

// Simplify is points-on-curve's simplify(points, epsilon), what Excalidraw
// runs on a closed freedraw stroke before filling it: the points that keep
// the polyline within epsilon (> 0; otherwise the points as given).
func Simplify(points []Point, epsilon float64) []Point {
	if !(epsilon > 0) || len(points) == 0 {
		return append([]Point(nil), points...)
	}
	in := make(polygon, len(points))
	for i := range points {
		p := points[i]
		in[i] = &p
	}
	kept := simplify(in, epsilon)
	out := make([]Point, len(kept))
	for i, p := range kept {
		out[i] = *p
	}
	return out
}
