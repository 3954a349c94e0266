package geom

import "math"

// Vec is a point or a direction in scene coordinates.
type Vec struct{ X, Y float64 }

func (a Vec) Add(b Vec) Vec             { return Vec{a.X + b.X, a.Y + b.Y} }
func (a Vec) Sub(b Vec) Vec             { return Vec{a.X - b.X, a.Y - b.Y} }
func (a Vec) Scale(k float64) Vec       { return Vec{a.X * k, a.Y * k} }
func (a Vec) Dot(b Vec) float64         { return a.X*b.X + a.Y*b.Y }
func (a Vec) Cross(b Vec) float64       { return a.X*b.Y - b.X*a.Y }
func (a Vec) Len() float64              { return math.Hypot(a.X, a.Y) }
func (a Vec) Dist(b Vec) float64        { return a.Sub(b).Len() }
func (a Vec) Equal(b Vec) bool          { return a.X == b.X && a.Y == b.Y }
func (a Vec) Lerp(b Vec, t float64) Vec { return a.Add(b.Sub(a).Scale(t)) }

// Unit is a scaled to length 1, or the zero vector for the zero vector.
func (a Vec) Unit() Vec {
	l := a.Len()
	if l == 0 {
		return Vec{}
	}
	return a.Scale(1 / l)
}

// Rotate turns p about c by angle radians (clockwise on screen, as
// Excalidraw's y axis points down).
func Rotate(p, c Vec, angle float64) Vec {
	if angle == 0 {
		return p
	}
	s, co := math.Sincos(angle)
	d := p.Sub(c)
	return Vec{c.X + d.X*co - d.Y*s, c.Y + d.X*s + d.Y*co}
}

// SegmentDistance is the distance from p to the segment ab.
func SegmentDistance(p, a, b Vec) float64 {
	ab := b.Sub(a)
	l2 := ab.Dot(ab)
	if l2 == 0 {
		return p.Dist(a)
	}
	t := math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/l2))
	return p.Dist(a.Add(ab.Scale(t)))
}

// SegmentIntersection returns where segments ab and cd cross, if they do
// (end points included, with a little tolerance for rounding).
func SegmentIntersection(a, b, c, d Vec) (Vec, bool) {
	r, s := b.Sub(a), d.Sub(c)
	den := r.Cross(s)
	if den == 0 {
		return Vec{}, false
	}
	t := c.Sub(a).Cross(s) / den
	u := c.Sub(a).Cross(r) / den
	const eps = 1e-9
	if t < -eps || t > 1+eps || u < -eps || u > 1+eps {
		return Vec{}, false
	}
	return a.Add(r.Scale(t)), true
}

// V is the vector (x, y).
func V(x, y float64) Vec { return Vec{X: x, Y: y} }
