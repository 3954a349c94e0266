package freehand

import "github.com/dshgo/dsh/internal/jsmath"

// vec is a point or a direction in the plane. The helpers below keep the
// order of floating-point operations perfect-freehand uses, and convert
// every product that feeds a sum to float64 so that no compiler fuses the
// two into one rounding: the outline must match the library's bit for bit.
type vec = [2]float64

func add(a, b vec) vec           { return vec{a[0] + b[0], a[1] + b[1]} }
func sub(a, b vec) vec           { return vec{a[0] - b[0], a[1] - b[1]} }
func neg(a vec) vec              { return vec{-a[0], -a[1]} }
func scale(a vec, k float64) vec { return vec{a[0] * k, a[1] * k} }

// perp turns a a quarter clockwise (in y-down screen coordinates, a
// quarter counter-clockwise on paper): (x, y) → (y, -x).
func perp(a vec) vec { return vec{a[1], -a[0]} }

func dot(a, b vec) float64 { return float64(a[0]*b[0]) + float64(a[1]*b[1]) }

// unit is a scaled to length 1 (NaN for the zero vector).
func unit(a vec) vec {
	l := jsmath.Hypot(a[0], a[1])
	return vec{a[0] / l, a[1] / l}
}

// dist is the distance from a to b.
func dist(a, b vec) float64 { return jsmath.Hypot(a[1]-b[1], a[0]-b[0]) }

// dist2 is the squared distance from a to b.
func dist2(a, b vec) float64 {
	d := sub(a, b)
	return float64(d[0]*d[0]) + float64(d[1]*d[1])
}

// lerp is a + (b - a)·t.
func lerp(a, b vec, t float64) vec {
	return vec{a[0] + float64((b[0]-a[0])*t), a[1] + float64((b[1]-a[1])*t)}
}

// project is a + b·k: k along b from a.
func project(a, b vec, k float64) vec {
	return vec{a[0] + float64(b[0]*k), a[1] + float64(b[1]*k)}
}

// rotate turns a about c by angle radians.
func rotate(a, c vec, angle float64) vec {
	s, k := jsmath.Sin(angle), jsmath.Cos(angle)
	x, y := a[0]-c[0], a[1]-c[1]
	return vec{
		(float64(x*k) - float64(y*s)) + c[0],
		(float64(x*s) + float64(y*k)) + c[1],
	}
}
