package render

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/render/rough"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// arrowheadSize and arrowheadAngle are Excalidraw's per-head constants
// (px and degrees).
func arrowheadSize(head string) float64 {
	switch head {
	case "arrow":
		return 25
	case "diamond", "diamond_outline":
		return 12
	case "crowfoot_many", "crowfoot_one", "crowfoot_one_or_many":
		return 20
	}
	return 15
}

func arrowheadAngle(head string) float64 {
	switch head {
	case "bar":
		return 90
	case "arrow":
		return 20
	}
	return 25
}

// curveOps is the op list Excalidraw reads an arrow's ends from: the first
// stroked set of its first drawable.
func curveOps(d rough.Drawable) []rough.Op {
	for _, s := range d.Sets {
		if s.Kind == rough.SetPath {
			return s.Ops
		}
	}
	if len(d.Sets) > 0 {
		return d.Sets[0].Ops
	}
	return nil
}

// rotateAbout turns (px, py) by angle radians about (cx, cy): the plane
// geometry's rotation (geom.Rotate, Excalidraw's pointRotateRads).
func rotateAbout(px, py, cx, cy, angle float64) (float64, float64) {
	v := geom.Rotate(geom.V(px, py), geom.V(cx, cy), angle)
	return v.X, v.Y
}

// arrowheadPoints is Excalidraw's getArrowheadPoints: the points a head is
// drawn through, found from the end of the drawn curve so the head follows
// the stroke. nil when the curve has no usable end.
func arrowheadPoints(e *element, curve rough.Drawable, start bool, head string) []float64 {
	ops := curveOps(curve)
	if len(ops) < 2 {
		return nil
	}
	index := len(ops) - 1
	if start {
		index = 1
	}
	op := ops[index]
	if op.Kind != rough.CurveTo {
		return nil
	}
	p1x, p1y, p2x, p2y, p3x, p3y := op.Data[0], op.Data[1], op.Data[2], op.Data[3], op.Data[4], op.Data[5]
	var p0x, p0y float64
	switch prev := ops[index-1]; prev.Kind {
	case rough.Move:
		p0x, p0y = prev.Data[0], prev.Data[1]
	case rough.CurveTo:
		p0x, p0y = prev.Data[4], prev.Data[5]
	}
	// Excalidraw's B(t), with the control points in reverse order.
	eq := func(t float64, a0, a1, a2, a3 float64) float64 {
		u := 1 - t
		return u*u*u*a3 + 3*t*u*u*a2 + 3*t*t*u*a1 + a0*t*t*t
	}
	x2, y2 := p3x, p3y
	if start {
		x2, y2 = p0x, p0y
	}
	x1, y1 := eq(0.3, p0x, p1x, p2x, p3x), eq(0.3, p0y, p1y, p2y, p3y)
	d := math.Hypot(x2-x1, y2-y1)
	nx, ny := (x2-x1)/d, (y2-y1)/d
	size := arrowheadSize(head)

	pts := e.points
	var length float64
	if len(pts) > 0 {
		c := pts[len(pts)-1]
		p := [2]float64{0, 0}
		if start {
			c = pts[0]
		}
		if len(pts) > 1 {
			if start {
				p = pts[1]
			} else {
				p = pts[len(pts)-2]
			}
		}
		length = math.Hypot(c[0]-p[0], c[1]-p[1])
	}
	mult := 0.5
	if head == "diamond" || head == "diamond_outline" {
		mult = 0.25
	}
	minSize := math.Min(size, length*mult)
	xs, ys := x2-nx*minSize, y2-ny*minSize

	switch head {
	case "dot", "circle", "circle_outline":
		return []float64{x2, y2, math.Hypot(ys-y2, xs-x2) + e.strokeWidth - 2}
	}
	angle := arrowheadAngle(head) * math.Pi / 180
	if head == "crowfoot_many" || head == "crowfoot_one_or_many" {
		x3, y3 := rotateAbout(x2, y2, xs, ys, -angle)
		x4, y4 := rotateAbout(x2, y2, xs, ys, angle)
		return []float64{xs, ys, x3, y3, x4, y4}
	}
	x3, y3 := rotateAbout(xs, ys, x2, y2, -angle)
	x4, y4 := rotateAbout(xs, ys, x2, y2, angle)
	if head == "diamond" || head == "diamond_outline" {
		var ox, oy float64
		if start {
			px, py := 0.0, 0.0
			if len(pts) > 1 {
				px, py = pts[1][0], pts[1][1]
			}
			ox, oy = rotateAbout(x2+minSize*2, y2, x2, y2, math.Atan2(py-y2, px-x2))
		} else {
			px, py := 0.0, 0.0
			if len(pts) > 1 {
				px, py = pts[len(pts)-2][0], pts[len(pts)-2][1]
			}
			ox, oy = rotateAbout(x2-minSize*2, y2, x2, y2, math.Atan2(y2-py, x2-px))
		}
		return []float64{x2, y2, x3, y3, ox, oy, x4, y4}
	}
	return []float64{x2, y2, x3, y3, x4, y4}
}

// arrowheadShapes is Excalidraw's getArrowheadShapes. o and st are the
// arrow's own options and paint; heads are always drawn solid, except the
// lines of a dotted arrow's head, which stay dotted a little tighter.
func arrowheadShapes(e *element, curve rough.Drawable, start bool, head string, o rough.Options, st paintedStyle, canvasBg string) []drawable {
	pts := arrowheadPoints(e, curve, start, head)
	if pts == nil {
		return nil
	}
	solid := paintedStyle{stroke: e.strokeColor}
	filled := func(outline bool) paintedStyle {
		s := solid
		s.fill = e.strokeColor
		if outline {
			s.fill = canvasBg
		}
		return s
	}
	crowfootOne := func(p []float64, o rough.Options, st paintedStyle) []drawable {
		if p == nil {
			return nil
		}
		return []drawable{{rough.Line(p[2], p[3], p[4], p[5], o), st}}
	}
	switch head {
	case "dot", "circle", "circle_outline":
		co := o
		co.Fill, co.FillStyle = true, rough.Solid
		co.Roughness = math.Min(0.5, o.Roughness)
		return []drawable{{rough.Circle(pts[0], pts[1], pts[2], co), filled(head == "circle_outline")}}
	case "triangle", "triangle_outline":
		co := o
		co.Fill, co.FillStyle = true, rough.Solid
		co.Roughness = math.Min(1, o.Roughness)
		poly := []rough.Point{{pts[0], pts[1]}, {pts[2], pts[3]}, {pts[4], pts[5]}, {pts[0], pts[1]}}
		return []drawable{{rough.Polygon(poly, co), filled(head == "triangle_outline")}}
	case "diamond", "diamond_outline":
		co := o
		co.Fill, co.FillStyle = true, rough.Solid
		co.Roughness = math.Min(1, o.Roughness)
		poly := []rough.Point{{pts[0], pts[1]}, {pts[2], pts[3]}, {pts[4], pts[5]}, {pts[6], pts[7]}, {pts[0], pts[1]}}
		return []drawable{{rough.Polygon(poly, co), filled(head == "diamond_outline")}}
	case "crowfoot_one":
		return crowfootOne(pts, o, solid)
	}
	ls := solid
	if e.strokeStyle == "dotted" {
		d := dotted(e.strokeWidth - 1)
		ls.dash = []float64{d[0], d[1] - 1}
	}
	lo := o
	lo.Roughness = math.Min(1, o.Roughness)
	out := []drawable{
		{rough.Line(pts[2], pts[3], pts[0], pts[1], lo), ls},
		{rough.Line(pts[4], pts[5], pts[0], pts[1], lo), ls},
	}
	if head == "crowfoot_one_or_many" {
		out = append(out, crowfootOne(arrowheadPoints(e, curve, start, "crowfoot_one"), lo, ls)...)
	}
	return out
}
