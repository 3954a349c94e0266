package render

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/render/rough"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// absoluteCoords is Excalidraw's getElementAbsoluteCoords: the unrotated
// box of an element in scene coordinates. For arrows and lines it is the
// box of the drawn curve (so it depends on the rough strokes), for
// freedraw that of its points. shapes are the element's drawables (nil
// for types without).
func absoluteCoords(e *element, shapes []drawable) geom.Rect {
	switch {
	case e.typ == "freedraw":
		b := pointsBox(e.points)
		return geom.R(b.MinX+e.x, b.MinY+e.y, b.MaxX+e.x, b.MaxY+e.y)
	case scene.IsLinear(e.typ):
		if len(e.points) < 2 || len(shapes) == 0 {
			b := pointsBox(e.points)
			return geom.R(b.MinX+e.x, b.MinY+e.y, b.MaxX+e.x, b.MaxY+e.y)
		}
		b := curveOpsBox(curveOps(shapes[0].d), nil)
		return geom.R(b.MinX+e.x, b.MinY+e.y, b.MaxX+e.x, b.MaxY+e.y)
	}
	return geom.R(e.x, e.y, e.x+e.w, e.y+e.h)
}

func pointsBox(pts [][2]float64) geom.Rect {
	if len(pts) == 0 {
		return geom.Rect{}
	}
	b := geom.R(math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1))
	for _, p := range pts {
		b.MinX, b.MinY = math.Min(b.MinX, p[0]), math.Min(b.MinY, p[1])
		b.MaxX, b.MaxY = math.Max(b.MaxX, p[0]), math.Max(b.MaxY, p[1])
	}
	return b
}

// curveOpsBox is Excalidraw's getMinMaxXYFromCurvePathOps: the exact box
// of the cubic curves of ops (moves only set the start; lines are not
// counted, as in Excalidraw), each point mapped by f when f is not nil.
func curveOpsBox(ops []rough.Op, f func(Point) Point) geom.Rect {
	b := geom.R(math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1))
	cur := Point{}
	tf := func(p Point) Point {
		if f == nil {
			return p
		}
		return f(p)
	}
	for _, op := range ops {
		switch op.Kind {
		case rough.Move:
			cur = Point{op.Data[0], op.Data[1]}
		case rough.CurveTo:
			p0 := tf(cur)
			p1 := tf(Point{op.Data[0], op.Data[1]})
			p2 := tf(Point{op.Data[2], op.Data[3]})
			p3 := tf(Point{op.Data[4], op.Data[5]})
			cur = Point{op.Data[4], op.Data[5]}
			minX, maxX := cubicExtent(p0.X, p1.X, p2.X, p3.X)
			minY, maxY := cubicExtent(p0.Y, p1.Y, p2.Y, p3.Y)
			b.MinX, b.MaxX = math.Min(b.MinX, minX), math.Max(b.MaxX, maxX)
			b.MinY, b.MaxY = math.Min(b.MinY, minY), math.Max(b.MaxY, maxY)
		}
	}
	return b
}

// cubicExtent is the range of one coordinate of a cubic Bézier: its ends
// and the values where its derivative is zero inside [0, 1] (Excalidraw's
// getCubicBezierCurveBound, which solves the derivative's quadratic).
func cubicExtent(p0, p1, p2, p3 float64) (lo, hi float64) {
	lo, hi = math.Min(p0, p3), math.Max(p0, p3)
	i, j, k := p1-p0, p2-p1, p3-p2
	a := 3*i - 6*j + 3*k
	b := 6*j - 6*i
	c := 3 * i
	disc := b*b - 4*a*c
	if disc < 0 {
		return lo, hi
	}
	var t1, t2 float64
	if a == 0 {
		t1 = -c / b
		t2 = t1
	} else {
		t1 = (-b + math.Sqrt(disc)) / (2 * a)
		t2 = (-b - math.Sqrt(disc)) / (2 * a)
	}
	at := func(t float64) float64 {
		u := 1 - t
		return u*u*u*p0 + 3*u*u*t*p1 + 3*u*t*t*p2 + t*t*t*p3
	}
	for _, t := range []float64{t1, t2} {
		if t >= 0 && t <= 1 {
			v := at(t)
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return lo, hi
}

// elementBounds is Excalidraw's getElementBounds: the axis-aligned box of
// the element as drawn, rotation included.
func elementBounds(e *element, shapes []drawable) geom.Rect {
	abs := absoluteCoords(e, shapes)
	cx, cy := (abs.MinX+abs.MaxX)/2, (abs.MinY+abs.MaxY)/2
	rot := func(x, y float64) Point {
		px, py := rotateAbout(x, y, cx, cy, e.angle)
		return Point{px, py}
	}
	box := func(ps ...Point) geom.Rect {
		b := geom.R(math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1))
		for _, p := range ps {
			b.MinX, b.MinY = math.Min(b.MinX, p.X), math.Min(b.MinY, p.Y)
			b.MaxX, b.MaxY = math.Max(b.MaxX, p.X), math.Max(b.MaxY, p.Y)
		}
		return b
	}
	switch {
	case e.typ == "freedraw":
		ps := make([]Point, len(e.points))
		for i, p := range e.points {
			x, y := rotateAbout(p[0], p[1], cx-e.x, cy-e.y, e.angle)
			ps[i] = Point{x + e.x, y + e.y}
		}
		if len(ps) == 0 {
			return geom.R(e.x, e.y, e.x, e.y)
		}
		return box(ps...)
	case scene.IsLinear(e.typ):
		if len(e.points) < 2 {
			if len(e.points) == 0 {
				return geom.R(e.x, e.y, e.x, e.y)
			}
			p := rot(e.x+e.points[0][0], e.y+e.points[0][1])
			return geom.R(p.X, p.Y, p.X, p.Y)
		}
		if len(shapes) == 0 {
			return abs
		}
		return curveOpsBox(curveOps(shapes[0].d), func(p Point) Point { return rot(e.x+p.X, e.y+p.Y) })
	case e.typ == "diamond":
		return box(rot(cx, abs.MinY), rot(cx, abs.MaxY), rot(abs.MinX, cy), rot(abs.MaxX, cy))
	case e.typ == "ellipse":
		w, h := abs.W()/2, abs.H()/2
		s, c := math.Sincos(e.angle)
		ww, hh := math.Hypot(w*c, h*s), math.Hypot(h*c, w*s)
		return geom.R(cx-ww, cy-hh, cx+ww, cy+hh)
	}
	return box(rot(abs.MinX, abs.MinY), rot(abs.MinX, abs.MaxY), rot(abs.MaxX, abs.MaxY), rot(abs.MaxX, abs.MinY))
}
