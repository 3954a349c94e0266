package raster

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
)

var black = color.NRGBA{A: 255}

// alphaOf paints what add puts in a coverage of w × h pixels in opaque
// black on a transparent image and returns the image.
func alphaOf(w, h int, nonZero bool, add func(c *coverage)) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	var c coverage
	c.reset(w, h)
	add(&c)
	c.paint(img, black, nonZero)
	return img
}

func polygon(c *coverage, pts ...render.Point) {
	for i, a := range pts {
		b := pts[(i+1)%len(pts)]
		c.line(a.X, a.Y, b.X, b.Y)
	}
}

// overlap is the area of [a0, a1] × [b0, b1] inside pixel (x, y).
func overlap(x, y int, x0, y0, x1, y1 float64) float64 {
	w := math.Max(0, math.Min(x1, float64(x+1))-math.Max(x0, float64(x)))
	h := math.Max(0, math.Min(y1, float64(y+1))-math.Max(y0, float64(y)))
	return w * h
}

// Each pixel's alpha is the area of it a polygon covers, for boxes at
// any fraction of a pixel, wound either way, partly outside the
// coverage's box on any side.
func TestCoverageIsTheAreaCovered(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		x0, y0 := rng.Float64()*30-5, rng.Float64()*30-5
		x1, y1 := x0+rng.Float64()*20, y0+rng.Float64()*20
		img := alphaOf(24, 24, n%2 == 0, func(c *coverage) {
			if n%3 == 0 { // the other way round
				polygon(c, render.Point{X: x0, Y: y0}, render.Point{X: x0, Y: y1}, render.Point{X: x1, Y: y1}, render.Point{X: x1, Y: y0})
			} else {
				polygon(c, render.Point{X: x0, Y: y0}, render.Point{X: x1, Y: y0}, render.Point{X: x1, Y: y1}, render.Point{X: x0, Y: y1})
			}
		})
		for y := range 24 {
			for x := range 24 {
				want := overlap(x, y, x0, y0, x1, y1) * 255
				if got := float64(img.RGBAAt(x, y).A); math.Abs(got-want) > 1.01 {
					t.Fatalf("box (%.3f, %.3f)–(%.3f, %.3f), pixel (%d, %d): alpha %v, want %.1f", x0, y0, x1, y1, x, y, got, want)
				}
			}
		}
	}
}

// A diagonal edge splits a pixel by the area on each side.
func TestCoverageOfASlantedEdge(t *testing.T) {
	// The triangle (0,0), (4,0), (0,4): pixel (1, 1) is cut by x+y = 4
	// through its corner (2, 2)... no: through (1,3)–(3,1), so (1,1) is
	// whole, (2,1) half, (3,0) half.
	img := alphaOf(4, 4, true, func(c *coverage) {
		polygon(c, render.Point{X: 0, Y: 0}, render.Point{X: 4, Y: 0}, render.Point{X: 0, Y: 4})
	})
	for _, p := range []struct {
		x, y int
		want uint8
	}{{1, 1, 255}, {2, 1, 128}, {3, 0, 128}, {3, 1, 0}, {0, 3, 128}} {
		if got := img.RGBAAt(p.x, p.y).A; int(got)-int(p.want) > 1 || int(p.want)-int(got) > 1 {
			t.Errorf("pixel (%d, %d): alpha %d, want %d", p.x, p.y, got, p.want)
		}
	}
}

// Two nested squares wound alike: the nonzero rule fills the inner one,
// the even-odd rule leaves it empty.
func TestCoverageFillRules(t *testing.T) {
	add := func(c *coverage) {
		polygon(c, render.Point{X: 1, Y: 1}, render.Point{X: 15, Y: 1}, render.Point{X: 15, Y: 15}, render.Point{X: 1, Y: 15})
		polygon(c, render.Point{X: 5, Y: 5}, render.Point{X: 11, Y: 5}, render.Point{X: 11, Y: 11}, render.Point{X: 5, Y: 11})
	}
	if a := alphaOf(16, 16, true, add).RGBAAt(8, 8).A; a != 255 {
		t.Errorf("nonzero: the inner square has alpha %d", a)
	}
	eo := alphaOf(16, 16, false, add)
	if a := eo.RGBAAt(8, 8).A; a != 0 {
		t.Errorf("even-odd: the inner square has alpha %d", a)
	}
	if a := eo.RGBAAt(3, 3).A; a != 255 {
		t.Errorf("even-odd: the ring has alpha %d", a)
	}
}

// A coverage is clean after paint: the next path starts from nothing.
func TestCoverageIsClearedByPaint(t *testing.T) {
	var c coverage
	c.reset(10, 10)
	polygon(&c, render.Point{X: 0, Y: 0}, render.Point{X: 10, Y: 0}, render.Point{X: 10, Y: 10}, render.Point{X: 0, Y: 10})
	c.paint(image.NewRGBA(image.Rect(0, 0, 10, 10)), black, true)
	c.reset(6, 14) // another shape reuses the cells
	img := image.NewRGBA(image.Rect(0, 0, 6, 14))
	c.paint(img, black, true)
	for i, v := range img.Pix {
		if v != 0 {
			t.Fatalf("byte %d is %d after painting nothing", i, v)
		}
	}
	for i, v := range c.cells {
		if v != 0 {
			t.Fatalf("cell %d is %v after paint", i, v)
		}
	}
}

// distToPolyline is the distance from p to the nearest point of pts
// (closed: including the last point back to the first).
func distToPolyline(p render.Point, pts []render.Point, closed bool) float64 {
	best := math.Inf(1)
	seg := func(a, b render.Point) {
		dx, dy := b.X-a.X, b.Y-a.Y
		t := 0.0
		if l := dx*dx + dy*dy; l > 0 {
			t = math.Max(0, math.Min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l))
		}
		best = math.Min(best, math.Hypot(p.X-a.X-t*dx, p.Y-a.Y-t*dy))
	}
	if len(pts) == 1 {
		seg(pts[0], pts[0])
	}
	for i := 1; i < len(pts); i++ {
		seg(pts[i-1], pts[i])
	}
	if closed && len(pts) > 2 {
		seg(pts[len(pts)-1], pts[0])
	}
	return best
}

// strokeOf paints a stroke of the polyline at width w.
func strokeOf(size int, pts []render.Point, closed bool, w float64, dash []float64) *image.RGBA {
	return alphaOf(size, size, true, func(c *coverage) {
		s := stroker{cov: c, dash: dash}
		s.setWidth(w)
		s.subpath(append([]render.Point(nil), pts...), closed)
	})
}

// A round-joined, round-capped stroke covers exactly the points within
// half its width of the line (its arcs within tolerance): whole pixels
// there, nothing beyond, for
// open and closed polylines turning any way (sharp turns, U-turns,
// crossings), so no join leaves a notch and no inner side a hole.
func TestStrokeCoversWhatIsWithinHalfItsWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const size = 64
	for n := range 200 {
		var pts []render.Point
		for range 1 + rng.IntN(7) {
			pts = append(pts, render.Point{X: 10 + rng.Float64()*44, Y: 10 + rng.Float64()*44})
		}
		if n%10 == 0 && len(pts) > 2 { // a U-turn
			pts[2] = pts[0]
		}
		closed := n%3 == 0
		w := 0.5 + rng.Float64()*9
		img := strokeOf(size, pts, closed, w, nil)
		for y := range size {
			for x := range size {
				d := distToPolyline(render.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}, pts, closed)
				a := img.RGBAAt(x, y).A
				switch {
				case d < w/2-0.75-tolerance && a < 250: // arcs are chords within tolerance
					t.Fatalf("stroke %d (width %.2f, closed %v, %v): pixel (%d, %d) at %.2f from the line has alpha %d", n, w, closed, pts, x, y, d, a)
				case d > w/2+0.75 && a != 0:
					t.Fatalf("stroke %d (width %.2f, closed %v, %v): pixel (%d, %d) at %.2f from the line has alpha %d", n, w, closed, pts, x, y, d, a)
				}
			}
		}
	}
}

// A dashed stroke is on and off along the line, the pattern restarting
// at each subpath, each dash round-capped.
func TestStrokeDashes(t *testing.T) {
	img := strokeOf(64, []render.Point{{X: 2, Y: 10}, {X: 62, Y: 10}}, false, 2, []float64{10, 10})
	for x := 2; x < 62; x++ {
		pos := math.Mod(float64(x)+0.5-2, 20)
		a := img.RGBAAt(x, 10).A
		switch {
		case pos > 1 && pos < 9 && a < 250:
			t.Errorf("x %d, %.1f into the pattern: alpha %d in a dash", x, pos, a)
		case pos > 11.5 && pos < 18.5 && a != 0:
			t.Errorf("x %d, %.1f into the pattern: alpha %d in a gap", x, pos, a)
		}
	}
}

// A pattern of no length, or so fine it would make millions of dashes,
// strokes solid.
func TestUsableDash(t *testing.T) {
	if d := usableDash([]float64{0, 0}, 1, 100); d != nil {
		t.Errorf("zero pattern: %v", d)
	}
	if d := usableDash([]float64{1e-9, 1e-9}, 1, 1e6); d != nil {
		t.Errorf("too fine: %v", d)
	}
	if d := usableDash([]float64{3}, 2, 100); len(d) != 2 || d[0] != 6 || d[1] != 6 {
		t.Errorf("odd list: %v, want [6 6]", d)
	}
}
