package raster

import (
	"image"
	"image/color"
	"math"
)

// coverage is an anti-aliased scan converter by signed area: each edge of
// a polygon adds, to the cells of the rows it crosses, how much it changes
// the area covered from that cell on, so that a running sum along a row is
// each pixel's exact coverage (the winding number, fractional at edges).
// Coverage adds up: polygons that share an edge leave no seam, and
// polygons of one orientation that overlap sum to more than one, which
// the nonzero rule clamps. That is how a stroke is drawn here, as the
// union of a polygon per segment, join and cap (see stroker).
//
// A coverage covers a box of pixels (reset); edges outside it are clipped
// (above and below: skipped; left: what they add reaches the box's first
// cell; right: dropped). Only the cells each row touched are summed,
// blended and cleared, so a thin stroke costs its length, not its box.
type coverage struct {
	w, h       int
	cells      []float32 // w+1 per row, zero outside a pass
	lo, hi     []int32   // per row, the touched cells [lo, hi], lo > hi when none
	minY, maxY int       // the touched rows
}

// reset sizes the coverage to a box of w × h pixels, with nothing in it.
func (c *coverage) reset(w, h int) {
	c.w, c.h = w, h
	if n := (w + 1) * h; n > len(c.cells) {
		c.cells = make([]float32, n)
	}
	c.lo, c.hi = untouchedRows(c.lo, c.hi, h)
	c.minY, c.maxY = h, -1
}

// untouchedRows is lo and hi, the touched span of each row, grown to h
// rows when they are shorter, every new row untouched (lo > hi). The
// rows in use are left as they are: a pass clears those it touched.
func untouchedRows(lo, hi []int32, h int) ([]int32, []int32) {
	if h <= len(lo) {
		return lo, hi
	}
	lo, hi = make([]int32, h), make([]int32, h)
	for y := range lo {
		lo[y], hi[y] = math.MaxInt32, -1
	}
	return lo, hi
}

// line adds the edge from (x0, y0) to (x1, y1), in the box's pixels.
func (c *coverage) line(x0, y0, x1, y1 float64) {
	if y0 == y1 || math.IsNaN(x0+y0+x1+y1) {
		return
	}
	dir := 1.0
	if y0 > y1 {
		x0, y0, x1, y1, dir = x1, y1, x0, y0, -1
	}
	if y1 <= 0 || y0 >= float64(c.h) {
		return
	}
	dxdy := (x1 - x0) / (y1 - y0)
	top, bottom := max(0, int(math.Floor(y0))), min(c.h, int(math.Ceil(y1)))
	if top < c.minY {
		c.minY = top
	}
	if bottom-1 > c.maxY {
		c.maxY = bottom - 1
	}
	for y := top; y < bottom; y++ {
		ya, yb := max(y0, float64(y)), min(y1, float64(y+1))
		xa, xb := x0+(ya-y0)*dxdy, x0+(yb-y0)*dxdy
		c.span(y, xa, xb, (yb-ya)*dir)
	}
}

// span adds, in row y, a piece of edge going from xa to xb (either way)
// over a height whose signed size is d. The pixel in column i is covered
// by d times the mean, over [i, i+1], of the share of the piece left of
// x: a ramp from 0 at its left end to 1 at its right end. Its integral
// is area below; a cell gets the difference of its pixel's coverage and
// the previous pixel's.
func (c *coverage) span(y int, xa, xb, d float64) {
	xl, xr := min(xa, xb), max(xa, xb)
	if xl >= float64(c.w) {
		// Right of the box: it changes no pixel there, but what the row
		// covers up to it must be painted to the box's edge.
		c.touch(y, c.w, c.w)
		return
	}
	row := c.cells[y*(c.w+1) : (y+1)*(c.w+1)]
	if xr <= 0 {
		// Left of the box: every pixel of the row is right of it.
		row[0] += float32(d)
		c.touch(y, 0, 0)
		return
	}
	i0 := int(math.Floor(xl))
	if i0 >= 0 && xr <= float64(i0+1) {
		// Within one pixel (most edges of thin strokes): it covers the
		// share right of the piece's middle; the next cell gets the rest.
		right := float64(i0+1) - (xl+xr)/2
		row[i0] += float32(d * right)
		row[i0+1] += float32(d * (1 - right))
		c.touch(y, i0, i0+1)
		return
	}
	width := xr - xl
	inv := 1 / (2 * width)
	area := func(x float64) float64 { // ∫ ramp from -∞ to x
		switch {
		case x <= xl:
			return 0
		case x >= xr:
			return x - xl - width/2
		default:
			return (x - xl) * (x - xl) * inv
		}
	}
	i1 := int(math.Floor(xr)) + 1
	start := max(i0, 0)
	end := min(i1, c.w)
	// Cells left of the box fold into its first: it gets its pixel's
	// whole coverage.
	prev, at := 0.0, area(float64(start))
	for i := start; i <= end; i++ {
		next := area(float64(i + 1))
		cov := d * (next - at)
		row[i] += float32(cov - prev)
		prev, at = cov, next
	}
	c.touch(y, start, end)
}

// touch widens row y's touched cells to hold [lo, hi].
func (c *coverage) touch(y, lo, hi int) {
	if int32(lo) < c.lo[y] {
		c.lo[y] = int32(lo)
	}
	if int32(hi) > c.hi[y] {
		c.hi[y] = int32(hi)
	}
}

// paint blends col through the coverage onto dst, the box's pixels in the
// image (same size), under the nonzero or even-odd rule, and clears the
// coverage for the next path.
func (c *coverage) paint(dst *image.RGBA, col color.NRGBA, nonZero bool) {
	// Premultiplied source, 0..1.
	sa := float32(col.A) / 255
	sr, sg, sb := float32(col.R)/255*sa, float32(col.G)/255*sa, float32(col.B)/255*sa
	opaque := col.A == 255
	solid := [4]uint8{col.R, col.G, col.B, 255}
	for y := c.minY; y <= c.maxY; y++ {
		lo, hi := int(c.lo[y]), int(c.hi[y])
		if lo > hi {
			continue
		}
		c.lo[y], c.hi[y] = math.MaxInt32, -1
		row := c.cells[y*(c.w+1):]
		pix := dst.Pix[y*dst.Stride:]
		var sum float32
		for x := lo; x <= hi; x++ {
			v := row[x]
			if v == 0 && sum == 0 {
				continue // a gap between shapes
			}
			row[x] = 0
			sum += v
			if sum < 1.0/4096 && sum > -1.0/4096 {
				sum = 0 // what rounding leaves after a shape
				continue
			}
			if x >= c.w {
				continue
			}
			a := sum
			if a < 0 {
				a = -a
			}
			if nonZero {
				a = min(a, 1)
			} else if a > 1 {
				a -= 2 * float32(math.Floor(float64(a/2)))
				if a > 1 {
					a = 2 - a
				}
			}
			if a < 1.0/512 {
				continue
			}
			p := pix[4*x : 4*x+4 : 4*x+4]
			if opaque && a > 1-1.0/512 {
				p[0], p[1], p[2], p[3] = solid[0], solid[1], solid[2], solid[3]
				continue
			}
			k := 1 - sa*a
			p[0] = uint8(float32(p[0])*k + sr*a*255 + 0.5)
			p[1] = uint8(float32(p[1])*k + sg*a*255 + 0.5)
			p[2] = uint8(float32(p[2])*k + sb*a*255 + 0.5)
			p[3] = uint8(float32(p[3])*k + sa*a*255 + 0.5)
		}
	}
	c.minY, c.maxY = c.h, -1
}
