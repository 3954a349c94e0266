package geom

import (
	"math"
	"slices"
)

// Roundness kinds, as the roundness.type of an element: 0 (no
// roundness) is sharp.
const (
	RoundnessLegacy       = 1 // files from before roundness had kinds
	RoundnessProportional = 2 // lines, arrows, diamonds (and ellipses, where it has no visible effect)
	RoundnessAdaptive     = 3 // rectangles and images: a fixed radius once big enough
)

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

// Shape is the geometry of a box shape (rectangle, diamond, ellipse,
// image, frame, text): enough to draw its outline the way Excalidraw
// renders it. X, Y, W and H are the element's unrotated box; Angle turns
// it about its centre.
type Shape struct {
	Type      string
	X, Y      float64
	W, H      float64
	Angle     float64
	Roundness int // 0 sharp, 1 legacy, 2 proportional, 3 adaptive
}

// Center is the element's centre, which rotation keeps in place.
func (s Shape) Center() Vec { return Vec{s.X + s.W/2, s.Y + s.H/2} }

// CornerRadius is getCornerRadius: x is the length the radius scales
// with.
func CornerRadius(x float64, roundness int) float64 {
	switch roundness {
	case RoundnessLegacy, RoundnessProportional:
		return x * proportionalRadius
	case RoundnessAdaptive:
		if x <= adaptiveRadius/proportionalRadius {
			return x * proportionalRadius
		}
		return adaptiveRadius
	}
	return 0
}

// Outline is the shape's outline as a convex polygon in scene
// coordinates, counter-clockwise in math terms, rotation applied: the path Excalidraw draws (rounded
// corners as the quadratic or cubic curves it uses), with curves sampled.
func (s Shape) Outline() []Vec {
	var local []Vec
	switch s.Type {
	case "ellipse":
		local = ellipseOutline(s.W, s.H)
	case "diamond":
		local = diamondOutline(s.W, s.H, s.Roundness)
	default:
		local = rectangleOutline(s.W, s.H, s.Roundness)
	}
	c := s.Center()
	out := make([]Vec, len(local))
	for i, p := range local {
		out[i] = Rotate(Vec{s.X + p.X, s.Y + p.Y}, c, s.Angle)
	}
	if SignedArea(out) < 0 { // a negative width or height mirrors the path
		slices.Reverse(out)
	}
	return out
}

// rectangleOutline follows the rounded rectangle path of Shape.ts:
// straight sides and a quadratic curve with its control point on each
// corner.
func rectangleOutline(w, h float64, roundness int) []Vec {
	r := CornerRadius(math.Min(w, h), roundness)
	if r <= 0 {
		return []Vec{{0, 0}, {w, 0}, {w, h}, {0, h}}
	}
	var pts []Vec
	corner := func(from, ctrl, to Vec) {
		for i := 0; i <= cornerSegments; i++ {
			pts = append(pts, quadratic(from, ctrl, to, float64(i)/cornerSegments))
		}
	}
	corner(Vec{w - r, 0}, Vec{w, 0}, Vec{w, r})
	corner(Vec{w, h - r}, Vec{w, h}, Vec{w - r, h})
	corner(Vec{r, h}, Vec{0, h}, Vec{0, h - r})
	corner(Vec{0, r}, Vec{0, 0}, Vec{r, 0})
	return pts
}

// diamondOutline follows getDiamondPoints (whose vertices sit one pixel
// past the middle, to keep rough.js away from zero) and, when rounded,
// the cubic curves Shape.ts cuts each vertex with.
func diamondOutline(w, h float64, roundness int) []Vec {
	topX := math.Floor(w/2) + 1
	rightY := math.Floor(h/2) + 1
	top, right, bottom, left := Vec{topX, 0}, Vec{w, rightY}, Vec{topX, h}, Vec{0, rightY}
	if roundness == 0 {
		return []Vec{top, right, bottom, left}
	}
	vr := CornerRadius(topX, roundness)
	hr := CornerRadius(rightY, roundness)
	var pts []Vec
	corner := func(from, vertex, to Vec) {
		for i := 0; i <= cornerSegments; i++ {
			pts = append(pts, cubic(from, vertex, vertex, to, float64(i)/cornerSegments))
		}
	}
	corner(Vec{right.X - vr, right.Y - hr}, right, Vec{right.X - vr, right.Y + hr})
	corner(Vec{bottom.X + vr, bottom.Y - hr}, bottom, Vec{bottom.X - vr, bottom.Y - hr})
	corner(Vec{left.X + vr, left.Y + hr}, left, Vec{left.X + vr, left.Y - hr})
	corner(Vec{top.X - vr, top.Y + hr}, top, Vec{top.X + vr, top.Y + hr})
	return pts
}

// ellipseOutline samples the ellipse inscribed in the w×h box.
func ellipseOutline(w, h float64) []Vec {
	pts := make([]Vec, ellipseSegments)
	for i := range pts {
		s, c := math.Sincos(2 * math.Pi * float64(i) / ellipseSegments)
		pts[i] = Vec{w/2 + w/2*c, h/2 + h/2*s}
	}
	return pts
}

func quadratic(a, b, c Vec, t float64) Vec {
	u := 1 - t
	return a.Scale(u * u).Add(b.Scale(2 * u * t)).Add(c.Scale(t * t))
}

func cubic(a, b, c, d Vec, t float64) Vec {
	u := 1 - t
	return a.Scale(u * u * u).Add(b.Scale(3 * u * u * t)).Add(c.Scale(3 * u * t * t)).Add(d.Scale(t * t * t))
}

// Ratio is p as fractions of the shape's unrotated box; a side of no
// length puts every point in its middle.
func (s Shape) Ratio(p Vec) (float64, float64) {
	q := Rotate(p, s.Center(), -s.Angle)
	frac := func(d, size float64) float64 {
		if size == 0 {
			return 0.5
		}
		return d / size
	}
	return frac(q.X-s.X, s.W), frac(q.Y-s.Y, s.H)
}

// At is the point At fractions of the shape's box, rotated with it.
func (s Shape) At(rx, ry float64) Vec {
	return Rotate(Vec{s.X + rx*s.W, s.Y + ry*s.H}, s.Center(), s.Angle)
}
