package raster

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
)

// tolerance is how far, in pixels, the lines a curve becomes may stray
// from it: a quarter of a pixel, below what anti-aliasing shows (Skia's
// tolerance too).
const tolerance = 0.25

// flattenQuad calls line with the ends of the n equal steps in t that keep
// the quadratic from p0 via c to p within tolerance: its second
// derivative is constant, 2(p0 - 2c + p), and n steps stray at most a
// quarter of its size over n².
func flattenQuad(p0, c, p render.Point, line func(render.Point)) {
	dd := math.Hypot(p0.X-2*c.X+p.X, p0.Y-2*c.Y+p.Y)
	n := steps(dd / (4 * tolerance))
	for i := 1; i < n; i++ {
		t := float64(i) / float64(n)
		mt := 1 - t
		line(render.Point{X: mt*mt*p0.X + 2*mt*t*c.X + t*t*p.X, Y: mt*mt*p0.Y + 2*mt*t*c.Y + t*t*p.Y})
	}
	line(p)
}

// flattenCubic is flattenQuad for a cubic: its second derivative is at
// most 6 times the larger of p0 - 2c1 + c2 and c1 - 2c2 + p, and n steps
// stray at most an eighth of that over n².
func flattenCubic(p0, c1, c2, p render.Point, line func(render.Point)) {
	dd := max(math.Hypot(p0.X-2*c1.X+c2.X, p0.Y-2*c1.Y+c2.Y), math.Hypot(c1.X-2*c2.X+p.X, c1.Y-2*c2.Y+p.Y))
	n := steps(0.75 * dd / tolerance)
	for i := 1; i < n; i++ {
		t := float64(i) / float64(n)
		mt := 1 - t
		a, b, c, d := mt*mt*mt, 3*mt*mt*t, 3*mt*t*t, t*t*t
		line(render.Point{X: a*p0.X + b*c1.X + c*c2.X + d*p.X, Y: a*p0.Y + b*c1.Y + c*c2.Y + d*p.Y})
	}
	line(p)
}

// steps is the number of lines for a curve whose error bound times n² is
// e: ⌈√e⌉, at least 1, at most 1000 (a curve off in the distance).
func steps(e float64) int {
	if !(e > 1) {
		return 1
	}
	return int(min(1000, math.Ceil(math.Sqrt(e))))
}
