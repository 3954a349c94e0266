package layout

import (
	"math"
	"sort"
)

// Crossings counts the points where two different polylines cross: a
// route crossing another twice counts twice. Touching without crossing,
// running along each other, and meeting within near of either
// polyline's ends (two routes that leave or enter one box) are not
// crossings. It takes any routes (dot's here, the router's later), so
// two routers can be compared on one graph.
func Crossings(paths [][]Point, near float64) int {
	type span struct {
		i          int
		minX, maxX float64
		minY, maxY float64
	}
	spans := make([]span, 0, len(paths))
	for i, p := range paths {
		if len(p) < 2 {
			continue
		}
		s := span{i, math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
		for _, q := range p {
			s.minX, s.maxX = math.Min(s.minX, q.X), math.Max(s.maxX, q.X)
			s.minY, s.maxY = math.Min(s.minY, q.Y), math.Max(s.maxY, q.Y)
		}
		spans = append(spans, s)
	}
	// Sweep along x: only paths whose x-extents overlap are compared.
	sort.Slice(spans, func(a, b int) bool { return spans[a].minX < spans[b].minX })
	n := 0
	for a := range spans {
		for b := a + 1; b < len(spans) && spans[b].minX <= spans[a].maxX; b++ {
			if spans[b].minY > spans[a].maxY || spans[a].minY > spans[b].maxY {
				continue
			}
			n += pathCrossings(paths[spans[a].i], paths[spans[b].i], near)
		}
	}
	return n
}

// pathCrossings counts where polylines p and q cross, away from their ends.
func pathCrossings(p, q []Point, near float64) int {
	ends := [4]Point{p[0], p[len(p)-1], q[0], q[len(q)-1]}
	n := 0
	for i := 0; i+1 < len(p); i++ {
		a, b := p[i], p[i+1]
		for j := 0; j+1 < len(q); j++ {
			c, d := q[j], q[j+1]
			if math.Max(a.X, b.X) < math.Min(c.X, d.X) || math.Max(c.X, d.X) < math.Min(a.X, b.X) ||
				math.Max(a.Y, b.Y) < math.Min(c.Y, d.Y) || math.Max(c.Y, d.Y) < math.Min(a.Y, b.Y) {
				continue
			}
			t, u, ok := intersect(a, b, c, d)
			// Each point is counted on the segment it starts: a crossing at
			// a joint is seen once, and a polyline's last point never.
			if !ok || t >= 1-segEps || u >= 1-segEps {
				continue
			}
			atP, atQ := t <= segEps, u <= segEps
			switch {
			case atP && i == 0, atQ && j == 0:
				continue // a polyline's first point: touching, not crossing
			case atQ && !sides(a, b, q[j-1], d):
				continue // q touches p at its joint and turns back
			case atP && !atQ && !sides(c, d, p[i-1], b):
				continue // p touches q at its joint and turns back
			}
			x := Point{a.X + t*(b.X-a.X), a.Y + t*(b.Y-a.Y)}
			end := false
			for _, e := range ends {
				if math.Hypot(x.X-e.X, x.Y-e.Y) <= near {
					end = true
					break
				}
			}
			if !end {
				n++
			}
		}
	}
	return n
}

const segEps = 1e-9

// sides reports whether u and v lie on opposite sides of the line ab.
func sides(a, b, u, v Point) bool {
	return orient(a, b, u)*orient(a, b, v) < 0
}

func orient(a, b, c Point) float64 {
	return (b.X-a.X)*(c.Y-a.Y) - (b.Y-a.Y)*(c.X-a.X)
}

// intersect is where segments ab and cd meet, as the fractions t along ab
// and u along cd, if they meet at one point (parallel segments, overlapping
// or not, do not).
func intersect(a, b, c, d Point) (t, u float64, ok bool) {
	r := Point{b.X - a.X, b.Y - a.Y}
	s := Point{d.X - c.X, d.Y - c.Y}
	den := r.X*s.Y - r.Y*s.X
	if math.Abs(den) < 1e-12*math.Max(1, math.Hypot(r.X, r.Y)*math.Hypot(s.X, s.Y)) {
		return 0, 0, false
	}
	w := Point{c.X - a.X, c.Y - a.Y}
	t = (w.X*s.Y - w.Y*s.X) / den
	u = (w.X*r.Y - w.Y*r.X) / den
	if t < -segEps || t > 1+segEps || u < -segEps || u > 1+segEps {
		return 0, 0, false
	}
	return math.Max(t, 0), math.Max(u, 0), true
}
