package rough

import (
	"cmp"
	"github.com/dshgo/dsh/internal/jsmath"
	"math"
	"slices"
)

// segment is a straight fill line.
type segment [2]Point

// hachureGap is the gap between fill lines: HachureGap, or four stroke
// widths when negative, and never below 0.1.
func (s *state) hachureGap() float64 {
	gap := s.HachureGap
	if gap < 0 {
		gap = s.StrokeWidth * 4
	}
	return math.Max(gap, 0.1)
}

// hachureSegments is rough's polygonHachureLines: the fill lines across
// polys at the options' angle and gap. With roughness 1 or more, three
// times in ten (by a draw) the scan steps a whole gap at a time, which
// shifts the lines against the other 7 in 10.
func (s *state) hachureSegments(polys []polygon) []segment {
	angle := s.HachureAngle + 90
	gap := s.hachureGap()
	step := 1.0
	if s.Roughness >= 1 {
		// rough draws from its generator if it has one yet, and takes
		// Math.random when it has none or the draw is 0.
		r := 0.0
		if s.rng != nil {
			r = s.rng.next(s.call.fallback)
		}
		if r == 0 {
			r = s.mathRandom()
		}
		if r > 0.7 {
			step = gap
		}
	}
	return s.scanHachure(polys, gap, angle, step)
}

// scanHachure is hachure-fill's hachureLines: rotate the polygons by angle
// degrees (in place), scan them with horizontal lines, then rotate the
// polygons and the lines back.
func (s *state) scanHachure(polys []polygon, gap, angle, step float64) []segment {
	gap = math.Max(gap, 0.1)
	if angle != 0 {
		for _, p := range polys {
			rotate(p, angle)
		}
	}
	lines := s.scanLines(polys, gap, step)
	if angle != 0 {
		for _, p := range polys {
			rotate(p, -angle)
		}
		for i := range lines {
			rotateLine(&lines[i], -angle)
		}
	}
	return lines
}

// rotate turns points by degrees about the origin, in place.
func rotate(points polygon, degrees float64) {
	if len(points) == 0 {
		return
	}
	cos, sin := rotation(degrees)
	for _, p := range points {
		p[0], p[1] = rotated(p[0], p[1], cos, sin)
	}
}

func rotateLine(l *segment, degrees float64) {
	cos, sin := rotation(degrees)
	for i := range l {
		l[i][0], l[i][1] = rotated(l[i][0], l[i][1], cos, sin)
	}
}

func rotation(degrees float64) (cos, sin float64) {
	a := (jsmath.PI / 180) * degrees
	return jsmath.Cos(a), jsmath.Sin(a)
}

// rotated is one point turned about the origin, with hachure-fill's
// arithmetic (it subtracts and adds the centre, 0, too).
func rotated(x, y, cos, sin float64) (float64, float64) {
	const cx, cy = 0.0, 0.0
	nx := float64((x-cx)*cos) - float64((y-cy)*sin) + cx
	ny := float64((x-cx)*sin) + float64((y-cy)*cos) + cy
	return nx, ny
}

// scanEdge is a polygon edge in the scan: its y range, the x where the
// scan line crosses it, and how much x moves per unit of y.
type scanEdge struct {
	ymin, ymax, x, islope float64
}

// scanLines is hachure-fill's straightHachureLines: an edge-table scan
// from the lowest y up, in steps of step, emitting a horizontal line
// between each pair of crossings (x rounded to an integer) on every line
// whose index is a multiple of gap, or on every line when the step is not 1.
func (s *state) scanLines(polys []polygon, gap, step float64) []segment {
	var edges []*scanEdge
	for _, poly := range polys {
		if len(poly) == 0 {
			continue // rough.js throws on an empty polygon
		}
		vertices := make([]Point, len(poly), len(poly)+1)
		for i, p := range poly {
			vertices[i] = *p
		}
		if first, last := vertices[0], vertices[len(vertices)-1]; first != last {
			vertices = append(vertices, first)
		}
		if len(vertices) <= 2 {
			continue
		}
		for i := 0; i < len(vertices)-1; i++ {
			p1, p2 := vertices[i], vertices[i+1]
			if p1[1] == p2[1] {
				continue
			}
			e := &scanEdge{ymin: math.Min(p1[1], p2[1]), ymax: math.Max(p1[1], p2[1])}
			if e.ymin == p1[1] {
				e.x = p1[0]
			} else {
				e.x = p2[0]
			}
			e.islope = (p2[0] - p1[0]) / (p2[1] - p1[1])
			edges = append(edges, e)
		}
	}
	// rough.js sorts with JavaScript's stable sort; these orders have no
	// NaN, so any stable sort gives the same result.
	slices.SortStableFunc(edges, func(a, b *scanEdge) int {
		if c := cmp.Compare(a.ymin, b.ymin); c != 0 {
			return c
		}
		if c := cmp.Compare(a.x, b.x); c != 0 {
			return c
		}
		return cmp.Compare(a.ymax, b.ymax)
	})
	var lines []segment
	if len(edges) == 0 {
		return lines
	}
	var active []*scanEdge
	y := edges[0].ymin
	top := y
	for _, e := range edges {
		top = math.Max(top, e.ymax)
	}
	if !s.affords(top-y, step) {
		return lines
	}
	for iteration := 0; len(active) > 0 || len(edges) > 0; iteration++ {
		if !s.spend(1) {
			return lines
		}
		if len(edges) > 0 {
			n := 0
			for n < len(edges) && edges[n].ymin <= y {
				n++
			}
			active = append(active, edges[:n]...)
			edges = edges[n:]
		}
		kept := active[:0]
		for _, e := range active {
			if e.ymax > y {
				kept = append(kept, e)
			}
		}
		active = kept
		slices.SortStableFunc(active, func(a, b *scanEdge) int { return cmp.Compare(a.x, b.x) })
		if step != 1 || math.Mod(float64(iteration), gap) == 0 {
			if !s.spend(len(active) / 2) {
				return lines
			}
			for i := 0; i+1 < len(active); i += 2 {
				lines = append(lines, segment{
					{jsmath.Round(active[i].x), y},
					{jsmath.Round(active[i+1].x), y},
				})
			}
		}
		y += step
		for _, e := range active {
			e.x = e.x + float64(step*e.islope)
		}
	}
	return lines
}
