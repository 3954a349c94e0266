package scene

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// boundsAcc accumulates the bounding box of elements, for callers that
// place new elements next to a drawing or fit a viewport to it.
type boundsAcc struct {
	b   Bounds
	any bool
}

func (a *boundsAcc) add(x, y float64) {
	if !a.any {
		a.b = Bounds{MinX: x, MinY: y, MaxX: x, MaxY: y}
		a.any = true
		return
	}
	a.b.MinX = math.Min(a.b.MinX, x)
	a.b.MinY = math.Min(a.b.MinY, y)
	a.b.MaxX = math.Max(a.b.MaxX, x)
	a.b.MaxY = math.Max(a.b.MaxY, y)
}

func (a *boundsAcc) result() *Bounds {
	if !a.any {
		return nil
	}
	b := a.b
	return &b
}

// addElement adds an element's extent: its points for arrows, lines and
// strokes (positions relative to x, y), its box otherwise, rotated by
// angle around the centre as Excalidraw draws it. Elements with unusable
// numbers are skipped: validation reports them.
func (a *boundsAcc) addElement(el *ojson.Object, typ string) {
	x, okX := finite(el, "x")
	y, okY := finite(el, "y")
	if !okX || !okY {
		return
	}
	angle, _ := finite(el, "angle")
	var buf [8][2]float64 // most shapes fit: no allocation per element
	pts := buf[:0]
	if hasPoints(typ) {
		pts = appendPoints(pts, el)
	} else {
		w, _ := finite(el, "width")
		h, _ := finite(el, "height")
		pts = append(pts, [2]float64{0, 0}, [2]float64{w, 0}, [2]float64{w, h}, [2]float64{0, h})
	}
	a.addShape(pts, x, y, angle)
}

// addShape adds points relative to (x, y), rotated by angle around the
// centre of their box.
func (a *boundsAcc) addShape(pts [][2]float64, x, y, angle float64) {
	if len(pts) == 0 {
		return
	}
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
	cx, cy := (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
	sin, cos := math.Sincos(angle)
	for _, p := range pts {
		dx, dy := p[0]-cx, p[1]-cy
		a.add(x+cx+dx*cos-dy*sin, y+cy+dx*sin+dy*cos)
	}
}

// finite reads a finite number member.
func finite(el *ojson.Object, k string) (float64, bool) {
	f, st := toNumber(mustGet(el, k))
	return f, st == numOK
}

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
