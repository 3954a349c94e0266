package build

import "math"

// Excalidraw's corner radius rules (getCornerRadius).
const (
	proportionalRadius = 0.25 // DEFAULT_PROPORTIONAL_RADIUS
	adaptiveRadius     = 32   // DEFAULT_ADAPTIVE_RADIUS, in pixels
)

// Sampling density of curved outlines. An ellipse of radius 500 sampled
// with 256 segments is off by at most 0.04 px, far below what anyone sees.
const (
	ellipseSegments = 256
	cornerSegments  = 12
)

// shape is the geometry of a bind target: enough to draw its outline the
// way Excalidraw renders it.
type shape struct {
	typ       string
	x, y      float64
	w, h      float64
	angle     float64
	roundness int // 0 sharp, 1 legacy, 2 proportional, 3 adaptive
}

// center is the element's centre, which rotation keeps in place.
func (s shape) center() vec { return vec{s.x + s.w/2, s.y + s.h/2} }

// cornerRadius is getCornerRadius: x is the length the radius scales
// with.
func cornerRadius(x float64, roundness int) float64 {
	switch roundness {
	case 1, roundnessProportional:
		return x * proportionalRadius
	case roundnessAdaptive:
		if x <= adaptiveRadius/proportionalRadius {
			return x * proportionalRadius
		}
		return adaptiveRadius
	}
	return 0
}

// outline is the shape's outline as a convex polygon in scene
// coordinates, rotation applied: the path Excalidraw draws (rounded
// corners as the quadratic or cubic curves it uses), with curves sampled.
func (s shape) outline() []vec {
	var local []vec
	switch s.typ {
	case "ellipse":
		local = ellipseOutline(s.w, s.h)
	case "diamond":
		local = diamondOutline(s.w, s.h, s.roundness)
	default:
		local = rectangleOutline(s.w, s.h, s.roundness)
	}
	c := s.center()
	out := make([]vec, len(local))
	for i, p := range local {
		out[i] = rotate(vec{s.x + p.x, s.y + p.y}, c, s.angle)
	}
	return out
}

// rectangleOutline follows the rounded rectangle path of Shape.ts:
// straight sides and a quadratic curve with its control point on each
// corner.
func rectangleOutline(w, h float64, roundness int) []vec {
	r := cornerRadius(math.Min(w, h), roundness)
	if r <= 0 {
		return []vec{{0, 0}, {w, 0}, {w, h}, {0, h}}
	}
	var pts []vec
	corner := func(from, ctrl, to vec) {
		for i := 0; i <= cornerSegments; i++ {
			pts = append(pts, quadratic(from, ctrl, to, float64(i)/cornerSegments))
		}
	}
	corner(vec{w - r, 0}, vec{w, 0}, vec{w, r})
	corner(vec{w, h - r}, vec{w, h}, vec{w - r, h})
	corner(vec{r, h}, vec{0, h}, vec{0, h - r})
	corner(vec{0, r}, vec{0, 0}, vec{r, 0})
	return pts
}

// diamondOutline follows getDiamondPoints (whose vertices sit one pixel
// past the middle, to keep rough.js away from zero) and, when rounded,
// the cubic curves Shape.ts cuts each vertex with.
func diamondOutline(w, h float64, roundness int) []vec {
	topX := math.Floor(w/2) + 1
	rightY := math.Floor(h/2) + 1
	top, right, bottom, left := vec{topX, 0}, vec{w, rightY}, vec{topX, h}, vec{0, rightY}
	if roundness == 0 {
		return []vec{top, right, bottom, left}
	}
	vr := cornerRadius(topX, roundness)
	hr := cornerRadius(rightY, roundness)
	var pts []vec
	corner := func(from, vertex, to vec) {
		for i := 0; i <= cornerSegments; i++ {
			pts = append(pts, cubic(from, vertex, vertex, to, float64(i)/cornerSegments))
		}
	}
	corner(vec{right.x - vr, right.y - hr}, right, vec{right.x - vr, right.y + hr})
	corner(vec{bottom.x + vr, bottom.y - hr}, bottom, vec{bottom.x - vr, bottom.y - hr})
	corner(vec{left.x + vr, left.y + hr}, left, vec{left.x + vr, left.y - hr})
	corner(vec{top.x - vr, top.y + hr}, top, vec{top.x + vr, top.y + hr})
	return pts
}

// ellipseOutline samples the ellipse inscribed in the w×h box.
func ellipseOutline(w, h float64) []vec {
	pts := make([]vec, ellipseSegments)
	for i := range pts {
		s, c := math.Sincos(2 * math.Pi * float64(i) / ellipseSegments)
		pts[i] = vec{w/2 + w/2*c, h/2 + h/2*s}
	}
	return pts
}

func quadratic(a, b, c vec, t float64) vec {
	u := 1 - t
	return a.scale(u * u).add(b.scale(2 * u * t)).add(c.scale(t * t))
}

func cubic(a, b, c, d vec, t float64) vec {
	u := 1 - t
	return a.scale(u * u * u).add(b.scale(3 * u * u * t)).add(c.scale(3 * u * t * t)).add(d.scale(t * t * t))
}

// polygonDistance is the distance from p to a convex polygon, 0 inside.
// It is the inner loop of every binding search, so it works in squared
// distances and takes one square root at the end.
func polygonDistance(poly []vec, p vec) float64 {
	if len(poly) == 0 {
		return math.Inf(1)
	}
	best := math.Inf(1)
	sign := 0.0
	inside := true
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		abx, aby := b.x-a.x, b.y-a.y
		apx, apy := p.x-a.x, p.y-a.y
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
	if inside && sign != 0 {
		return 0
	}
	return math.Sqrt(best)
}
