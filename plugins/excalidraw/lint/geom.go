package lint

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// rect is an axis-aligned box, x0 ≤ x1 and y0 ≤ y1.
type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) w() float64        { return r.x1 - r.x0 }
func (r rect) h() float64        { return r.y1 - r.y0 }
func (r rect) area() float64     { return r.w() * r.h() }
func (r rect) center() geom.Vec  { return geom.V((r.x0+r.x1)/2, (r.y0+r.y1)/2) }
func (r rect) diagonal() float64 { return math.Hypot(r.w(), r.h()) }

// intersects reports whether the boxes share any point.
func (r rect) intersects(s rect) bool {
	return r.x0 <= s.x1 && s.x0 <= r.x1 && r.y0 <= s.y1 && s.y0 <= r.y1
}

// inter is the intersection (empty boxes have a negative side).
func (r rect) inter(s rect) rect {
	return rect{math.Max(r.x0, s.x0), math.Max(r.y0, s.y0), math.Min(r.x1, s.x1), math.Min(r.y1, s.y1)}
}

// contains reports whether s lies within r.
func (r rect) contains(s rect) bool {
	return s.x0 >= r.x0 && s.x1 <= r.x1 && s.y0 >= r.y0 && s.y1 <= r.y1
}

func (r rect) expand(d float64) rect { return rect{r.x0 - d, r.y0 - d, r.x1 + d, r.y1 + d} }

// gap is the distance between two boxes, 0 when they touch or overlap.
func (r rect) gap(s rect) float64 {
	dx := math.Max(0, math.Max(s.x0-r.x1, r.x0-s.x1))
	dy := math.Max(0, math.Max(s.y0-r.y1, r.y0-s.y1))
	return math.Hypot(dx, dy)
}

// boundsOf is the box of points.
func boundsOf(ps []geom.Vec) rect {
	r := rect{ps[0].X, ps[0].Y, ps[0].X, ps[0].Y}
	for _, p := range ps[1:] {
		r.x0, r.y0 = math.Min(r.x0, p.X), math.Min(r.y0, p.Y)
		r.x1, r.y1 = math.Max(r.x1, p.X), math.Max(r.y1, p.Y)
	}
	return r
}

// round2 rounds to hundredths, for suggestions people and agents read.
func round2(x float64) float64 { return math.Round(x*100) / 100 }

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
