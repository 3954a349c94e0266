package build

import "math"

// vec is a point or a direction in scene coordinates.
type vec struct{ x, y float64 }

func (a vec) add(b vec) vec             { return vec{a.x + b.x, a.y + b.y} }
func (a vec) sub(b vec) vec             { return vec{a.x - b.x, a.y - b.y} }
func (a vec) scale(k float64) vec       { return vec{a.x * k, a.y * k} }
func (a vec) dot(b vec) float64         { return a.x*b.x + a.y*b.y }
func (a vec) cross(b vec) float64       { return a.x*b.y - b.x*a.y }
func (a vec) length() float64           { return math.Hypot(a.x, a.y) }
func (a vec) dist(b vec) float64        { return a.sub(b).length() }
func (a vec) equal(b vec) bool          { return a.x == b.x && a.y == b.y }
func (a vec) lerp(b vec, t float64) vec { return a.add(b.sub(a).scale(t)) }

// unit is a scaled to length 1, or the zero vector for the zero vector.
func (a vec) unit() vec {
	l := a.length()
	if l == 0 {
		return vec{}
	}
	return a.scale(1 / l)
}

// rotate turns p about c by angle radians (clockwise on screen, as
// Excalidraw's y axis points down).
func rotate(p, c vec, angle float64) vec {
	if angle == 0 {
		return p
	}
	s, co := math.Sincos(angle)
	d := p.sub(c)
	return vec{c.x + d.x*co - d.y*s, c.y + d.x*s + d.y*co}
}

// segmentDistance is the distance from p to the segment ab.
func segmentDistance(p, a, b vec) float64 {
	ab := b.sub(a)
	l2 := ab.dot(ab)
	if l2 == 0 {
		return p.dist(a)
	}
	t := math.Max(0, math.Min(1, p.sub(a).dot(ab)/l2))
	return p.dist(a.add(ab.scale(t)))
}

// segmentIntersection returns where segments ab and cd cross, if they do
// (end points included, with a little tolerance for rounding).
func segmentIntersection(a, b, c, d vec) (vec, bool) {
	r, s := b.sub(a), d.sub(c)
	den := r.cross(s)
	if den == 0 {
		return vec{}, false
	}
	t := c.sub(a).cross(s) / den
	u := c.sub(a).cross(r) / den
	const eps = 1e-9
	if t < -eps || t > 1+eps || u < -eps || u > 1+eps {
		return vec{}, false
	}
	return a.add(r.scale(t)), true
}
