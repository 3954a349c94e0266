package scene

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// ElementBounds is the axis-aligned box around an element as drawn,
// rotation included, the way Excalidraw's getElementBounds computes it:
// a rectangle-like element's four corners rotated about its centre, a
// diamond's four vertices, an ellipse's exact extent, and for arrows,
// lines and freedraw their points (relative to x, y) rotated about the
// centre of the points' box. Curved arrows are bounded by their points,
// not the curve through them, so a strongly bent curve may reach a
// little outside; one without usable points is the point (x, y). ok is
// false for an element without finite x and y.
//
// It is the one bounds geometry: validation stats, placement and the
// query package all measure with it.
func ElementBounds(el *ojson.Object) (geom.Rect, bool) {
	var a boundsAcc
	a.addElement(el)
	if !a.any {
		return geom.Rect{}, false
	}
	return a.b, true
}

// boundsAcc accumulates the bounding box of elements, for callers that
// place new elements next to a drawing or fit a viewport to it.
type boundsAcc struct {
	b   geom.Rect
	any bool
}

func (a *boundsAcc) add(x, y float64) {
	if !a.any {
		a.b = geom.R(x, y, x, y)
		a.any = true
		return
	}
	a.b.MinX = math.Min(a.b.MinX, x)
	a.b.MinY = math.Min(a.b.MinY, y)
	a.b.MaxX = math.Max(a.b.MaxX, x)
	a.b.MaxY = math.Max(a.b.MaxY, y)
}

func (a *boundsAcc) result() *geom.Rect {
	if !a.any {
		return nil
	}
	b := a.b
	return &b
}

// addElement adds an element's extent (see [ElementBounds]). Elements
// with unusable numbers are skipped: validation reports them.
func (a *boundsAcc) addElement(el *ojson.Object) {
	x, okX := finite(el, "x")
	y, okY := finite(el, "y")
	if !okX || !okY {
		return
	}
	angle, _ := finite(el, "angle")
	typ, _ := el.String("type")
	if HasPoints(typ) {
		var buf [8][2]float64 // most shapes fit: no allocation per element
		pts := appendPoints(buf[:0], el)
		if len(pts) == 0 {
			pts = append(pts, [2]float64{0, 0}) // nothing drawn: it sits at (x, y)
		}
		a.addPoints(pts, x, y, angle)
		return
	}
	w, _ := finite(el, "width")
	h, _ := finite(el, "height")
	x1, y1, x2, y2 := math.Min(x, x+w), math.Min(y, y+h), math.Max(x, x+w), math.Max(y, y+h)
	cx, cy := (x1+x2)/2, (y1+y2)/2
	switch {
	case angle == 0:
		a.add(x1, y1)
		a.add(x2, y2)
	case typ == "ellipse":
		sin, cos := math.Sincos(angle)
		rw, rh := (x2-x1)/2, (y2-y1)/2
		ww, hh := math.Hypot(rw*cos, rh*sin), math.Hypot(rh*cos, rw*sin)
		a.add(cx-ww, cy-hh)
		a.add(cx+ww, cy+hh)
	case typ == "diamond":
		a.add(rotate(cx, y1, cx, cy, angle))
		a.add(rotate(x2, cy, cx, cy, angle))
		a.add(rotate(cx, y2, cx, cy, angle))
		a.add(rotate(x1, cy, cx, cy, angle))
	default:
		a.add(rotate(x1, y1, cx, cy, angle))
		a.add(rotate(x2, y1, cx, cy, angle))
		a.add(rotate(x2, y2, cx, cy, angle))
		a.add(rotate(x1, y2, cx, cy, angle))
	}
}

// addPoints adds points relative to (x, y), rotated by angle around the
// centre of their box.
func (a *boundsAcc) addPoints(pts [][2]float64, x, y, angle float64) {
	lo, hi := pts[0], pts[0]
	for _, p := range pts[1:] {
		lo = [2]float64{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
		hi = [2]float64{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
	}
	if angle == 0 {
		a.add(x+lo[0], y+lo[1])
		a.add(x+hi[0], y+hi[1])
		return
	}
	cx, cy := x+(lo[0]+hi[0])/2, y+(lo[1]+hi[1])/2
	for _, p := range pts {
		a.add(rotate(x+p[0], y+p[1], cx, cy, angle))
	}
}

// rotate turns (x, y) about (cx, cy) by angle radians, as [geom.Rotate].
func rotate(x, y, cx, cy, angle float64) (float64, float64) {
	p := geom.Rotate(geom.V(x, y), geom.V(cx, cy), angle)
	return p.X, p.Y
}

// Finite reads an element's number member, ok false unless it is there
// and finite.
func Finite(el *ojson.Object, k string) (float64, bool) { return finite(el, k) }

func finite(el *ojson.Object, k string) (float64, bool) {
	f, st := toNumber(mustGet(el, k))
	return f, st == numOK
}

// Points are a linear element's or stroke's usable points, relative to
// its x and y; malformed ones are skipped.
func Points(el *ojson.Object) [][2]float64 { return appendPoints(nil, el) }

// appendPoints appends the usable points of an element.
func appendPoints(out [][2]float64, el *ojson.Object) [][2]float64 {
	arr, _ := el.Array("points")
	for _, p := range arr {
		pt, ok := p.([]any)
		if !ok || len(pt) < 2 {
			continue
		}
		px, s0 := toNumber(pt[0])
		py, s1 := toNumber(pt[1])
		if s0 == numOK && s1 == numOK {
			out = append(out, [2]float64{px, py})
		}
	}
	return out
}
