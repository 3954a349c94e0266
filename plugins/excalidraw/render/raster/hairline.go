package raster

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
)

// A stroke at most one pixel wide is drawn as a hairline, as Chromium's
// canvas (Skia) draws it: along the segment's major axis each pixel step
// gets the stroke's width as coverage, shared between the two pixels
// across the line nearest its centre (so a 45° line is no darker than a
// level one), and each subpath is blended on its own, so that the two
// near-identical strokes rough.js draws for every line blend twice
// instead of summing to solid ink.

// hairSegment adds the hairline from a to b (in the box's pixels), of
// coverage k per pixel step, to the union's pixels: a hairline's
// coverage is added to each pixel as it is, not as a signed area.
func (c *union) hairSegment(a, b render.Point, k float64) {
	dx, dy := b.X-a.X, b.Y-a.Y
	if math.IsNaN(dx+dy) || math.IsInf(dx+dy, 0) || (dx == 0 && dy == 0) {
		return
	}
	xMajor := math.Abs(dx) >= math.Abs(dy)
	// Walk along u (the major axis) from lo to hi; v is across.
	u0, v0, du, dv := a.X, a.Y, dx, dy
	if !xMajor {
		u0, v0, du, dv = a.Y, a.X, dy, dx
	}
	if du < 0 {
		u0, v0, du, dv = u0+du, v0+dv, -du, -dv
	}
	slope := dv / du
	uMax, vMax := float64(c.w), float64(c.h)
	if !xMajor {
		uMax, vMax = vMax, uMax
	}
	lo, hi := max(u0, 0), min(u0+du, uMax)
	for i := int(math.Floor(lo)); float64(i) < hi; i++ {
		s, e := max(lo, float64(i)), min(hi, float64(i+1))
		if e <= s {
			continue
		}
		cov := k * (e - s)
		t := v0 + ((s+e)/2-u0)*slope - 0.5 // the top of the pixel-tall line
		if t < -1 || t >= vMax {
			continue
		}
		j := int(math.Floor(t))
		f := t - float64(j)
		c.hairPixel(xMajor, i, j, cov*(1-f))
		c.hairPixel(xMajor, i, j+1, cov*f)
	}
}

// hairPixel adds v to the coverage of the pixel at u, v on the axes
// hairSegment walks.
func (c *union) hairPixel(xMajor bool, u, across int, v float64) {
	x, y := u, across
	if !xMajor {
		x, y = across, u
	}
	if v == 0 || x < 0 || y < 0 || x >= c.w || y >= c.h {
		return
	}
	c.pix[y*c.w+x] += float32(v)
	c.lo[y], c.hi[y] = min(c.lo[y], int32(x)), max(c.hi[y], int32(x))
	c.minY, c.maxY = min(c.minY, y), max(c.maxY, y)
}

// hairline draws the points as a hairline of coverage s.hair (closed:
// back to the first).
func (s *stroker) hairline(pts []render.Point, closed bool) {
	o := render.Point{X: s.ox, Y: s.oy}
	sub := func(p render.Point) render.Point { return render.Point{X: p.X - o.X, Y: p.Y - o.Y} }
	if len(pts) == 1 {
		// A dot: its coverage on the pixels round it.
		p := sub(pts[0])
		s.hairs.hairSegment(render.Point{X: p.X - 0.5, Y: p.Y}, render.Point{X: p.X + 0.5, Y: p.Y}, s.hair)
	}
	for i := 1; i < len(pts); i++ {
		s.hairs.hairSegment(sub(pts[i-1]), sub(pts[i]), s.hair)
	}
	if closed && len(pts) > 2 {
		s.hairs.hairSegment(sub(pts[len(pts)-1]), sub(pts[0]), s.hair)
	}
}
