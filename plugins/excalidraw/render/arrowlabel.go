package render

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/render/rough"
)

// arrowLabelPosition is where Excalidraw draws the label of an arrow or
// line (LinearElementEditor.getBoundTextElementPosition): centred on the
// middle point of an odd number of points, else on the middle of the
// middle segment — along the drawn curve for a curved one. The label's
// stored x and y are not used: the editor recomputes them too.
func arrowLabelPosition(arrow, label *element, shapes []drawable) (x, y float64) {
	pts := arrow.points
	global := func(p [2]float64) (float64, float64) {
		abs := absoluteCoords(arrow, shapes)
		cx, cy := (abs.MinX+abs.MaxX)/2, (abs.MinY+abs.MaxY)/2
		return rotateAbout(arrow.x+p[0], arrow.y+p[1], cx, cy, arrow.angle)
	}
	var mx, my float64
	switch {
	case len(pts) == 0:
		return label.x, label.y
	case len(pts)%2 == 1:
		mx, my = global(pts[len(pts)/2])
	default:
		i := len(pts)/2 - 1
		ax, ay := global(pts[i])
		bx, by := global(pts[i+1])
		mx, my = (ax+bx)/2, (ay+by)/2
		if len(pts) > 2 && arrow.roundness != 0 && len(shapes) > 0 {
			if c, ok := curveThrough(curveOps(shapes[0].d), pts[i+1]); ok {
				t := halfwayT(c)
				mx, my = global(bezierXY(c, t))
			}
		}
	}
	return mx - label.w/2, my - label.h/2
}

// curveThrough is Excalidraw's getControlPointsForBezierCurve: the cubic of
// the drawn curve whose end is nearest end (local coordinates).
func curveThrough(ops []rough.Op, end [2]float64) ([4][2]float64, bool) {
	var cur [2]float64
	best, found := math.Inf(1), false
	var out [4][2]float64
	for _, op := range ops {
		switch op.Kind {
		case rough.Move:
			cur = [2]float64{op.Data[0], op.Data[1]}
		case rough.CurveTo:
			p3 := [2]float64{op.Data[4], op.Data[5]}
			if d := math.Hypot(p3[0]-end[0], p3[1]-end[1]); d < best {
				best, found = d, true
				out = [4][2]float64{cur, {op.Data[0], op.Data[1]}, {op.Data[2], op.Data[3]}, p3}
			}
			cur = p3
		}
	}
	return out, found
}

// bezierXY is Excalidraw's getBezierXY, whose t runs from the curve's end
// (t = 0) to its start (t = 1).
func bezierXY(c [4][2]float64, t float64) [2]float64 {
	eq := func(i int) float64 {
		u := 1 - t
		return u*u*u*c[3][i] + 3*t*u*u*c[2][i] + 3*t*t*u*c[1][i] + c[0][i]*t*t*t
	}
	return [2]float64{eq(0), eq(1)}
}

// halfwayT is Excalidraw's mapIntervalToBezierT(…, 0.5): the t at half the
// curve's length, measured over its points at t = 1, 0.95, … as the
// editor samples them.
func halfwayT(c [4][2]float64) float64 {
	var pts [][2]float64
	for t := 1.0; t > 0; t -= 0.05 {
		pts = append(pts, bezierXY(c, t))
	}
	if last := pts[len(pts)-1]; last == c[3] {
		pts = append(pts, c[3])
	}
	arc := []float64{0}
	for i := 0; i+1 < len(pts); i++ {
		arc = append(arc, arc[len(arc)-1]+math.Hypot(pts[i+1][0]-pts[i][0], pts[i+1][1]-pts[i][1]))
	}
	n := len(arc) - 1
	target := 0.5 * arc[n]
	lo, hi, index := 0, n, 0
	for lo < hi {
		index = lo + (hi-lo)/2
		if arc[index] < target {
			lo = index + 1
		} else {
			hi = index
		}
	}
	if arc[index] > target {
		index--
	}
	if index < 0 || index+1 > n {
		return 0.5
	}
	if arc[index] == target {
		return float64(index) / float64(n)
	}
	return 1 - (float64(index)+(target-arc[index])/(arc[index+1]-arc[index]))/float64(n)
}
