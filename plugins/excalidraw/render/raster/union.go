package raster

import (
	"image"
	"image/color"
	"math"
)

// A stroke more than a pixel wide is, in Chromium, the union of its
// subpaths' outlines: where two of them overlap in a pixel, as rough.js's
// two strokes of every line do along their edges, the pixel is covered
// by as much as the larger of them, not their sum. The union keeps, for
// each pixel, the most any subpath so far covers it (merge), and blends
// that once (paint).
type union struct {
	w, h       int
	pix        []float32 // w per row, zero outside a stroke
	lo, hi     []int32   // per row, the touched pixels [lo, hi]
	minY, maxY int
}

// reset sizes the union to a box of w × h pixels, with nothing in it
// (every pixel is zero and every row untouched outside a stroke).
func (u *union) reset(w, h int) {
	u.w, u.h = w, h
	if n := w * h; n > len(u.pix) {
		u.pix = make([]float32, n)
	}
	u.lo, u.hi = untouchedRows(u.lo, u.hi, h)
	u.minY, u.maxY = h, -1
}

// merge folds the coverage's subpath (nonzero) into the union, and clears
// the coverage.
func (c *coverage) merge(u *union) {
	for y := c.minY; y <= c.maxY; y++ {
		lo, hi := int(c.lo[y]), int(c.hi[y])
		if lo > hi {
			continue
		}
		c.lo[y], c.hi[y] = math.MaxInt32, -1
		row := c.cells[y*(c.w+1):]
		out := u.pix[y*c.w : (y+1)*c.w]
		var sum float32
		first, last := -1, -1
		for x := lo; x <= hi; x++ {
			v := row[x]
			if v == 0 && sum == 0 {
				continue
			}
			row[x] = 0
			sum += v
			if x >= c.w {
				continue
			}
			a := min(max(sum, -sum), 1)
			if a < 1.0/512 {
				continue
			}
			if a > out[x] {
				out[x] = a
			}
			if first < 0 {
				first = x
			}
			last = x
		}
		if first >= 0 {
			u.lo[y], u.hi[y] = min(u.lo[y], int32(first)), max(u.hi[y], int32(last))
			u.minY, u.maxY = min(u.minY, y), max(u.maxY, y)
		}
	}
	c.minY, c.maxY = c.h, -1
}

// paint blends col through the union onto dst (the box's pixels), each
// pixel covered at most once, and clears the union.
func (u *union) paint(dst *image.RGBA, col color.NRGBA) {
	sa := float32(col.A) / 255
	sr, sg, sb := float32(col.R)/255*sa, float32(col.G)/255*sa, float32(col.B)/255*sa
	opaque := col.A == 255
	for y := u.minY; y <= u.maxY; y++ {
		lo, hi := int(u.lo[y]), int(u.hi[y])
		if lo > hi {
			continue
		}
		u.lo[y], u.hi[y] = math.MaxInt32, -1
		row := u.pix[y*u.w : (y+1)*u.w]
		pix := dst.Pix[y*dst.Stride:]
		for x := lo; x <= hi; x++ {
			a := row[x]
			if a == 0 {
				continue
			}
			row[x] = 0
			if a < 1.0/512 {
				continue
			}
			a = min(a, 1)
			p := pix[4*x : 4*x+4 : 4*x+4]
			if opaque && a > 1-1.0/512 {
				p[0], p[1], p[2], p[3] = col.R, col.G, col.B, 255
				continue
			}
			k := 1 - sa*a
			p[0] = uint8(float32(p[0])*k + sr*a*255 + 0.5)
			p[1] = uint8(float32(p[1])*k + sg*a*255 + 0.5)
			p[2] = uint8(float32(p[2])*k + sb*a*255 + 0.5)
			p[3] = uint8(float32(p[3])*k + sa*a*255 + 0.5)
		}
	}
	u.minY, u.maxY = u.h, -1
}
