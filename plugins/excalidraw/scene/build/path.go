package build

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// defaultLinearWidth is the length convertToExcalidrawElements gives a
// line or arrow without points or size (a horizontal 100 px stroke).
const defaultLinearWidth = 100

// path is a line, arrow or freedraw path: an origin (the element's x/y)
// and points relative to it.
type path struct {
	origin geom.Vec
	rel    []geom.Vec
}

// inputPath reads a path from points, or from width/height as the
// two-point shorthand.
func inputPath(in *input) path {
	p := path{origin: geom.V(orFloat(in.X, 0), orFloat(in.Y, 0))}
	if in.Points != nil {
		p.rel = make([]geom.Vec, len(in.Points))
		for i, q := range in.Points {
			p.rel[i] = geom.V(q[0], q[1])
		}
		return p
	}
	p.rel = []geom.Vec{geom.V(0, 0), geom.V(orFloat(in.Width, defaultLinearWidth), orFloat(in.Height, 0))}
	return p
}

// global returns point i in scene coordinates.
func (p path) global(i int) geom.Vec { return p.origin.Add(p.rel[i]) }

// globals returns every point in scene coordinates.
func (p path) globals() []geom.Vec {
	out := make([]geom.Vec, len(p.rel))
	for i := range p.rel {
		out[i] = p.global(i)
	}
	return out
}

// setGlobal moves point i to g.
func (p path) setGlobal(i int, g geom.Vec) { p.rel[i] = g.Sub(p.origin) }

// normalized moves the origin onto the first point, so that points start
// at [0, 0] as Excalidraw requires (restore re-bases any path that does
// not).
func (p path) normalized() path {
	first := p.rel[0]
	if first.X == 0 && first.Y == 0 {
		return p
	}
	out := path{origin: p.origin.Add(first), rel: make([]geom.Vec, len(p.rel))}
	for i, q := range p.rel {
		out.rel[i] = q.Sub(first)
	}
	out.rel[0] = geom.Vec{}
	return out
}

// size is the points' bounding box, computed as getSizeFromPoints does
// (max − min per axis) so that restore recomputes the same numbers.
func (p path) size() (w, h float64) {
	minX, maxX := math.Inf(1), math.Inf(-1)
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, q := range p.rel {
		minX, maxX = math.Min(minX, q.X), math.Max(maxX, q.X)
		minY, maxY = math.Min(minY, q.Y), math.Max(maxY, q.Y)
	}
	return maxX - minX, maxY - minY
}

// pointsValue is the `points` field.
func (p path) pointsValue() []any {
	out := make([]any, len(p.rel))
	for i, q := range p.rel {
		out[i] = []any{jsNum(q.X), jsNum(q.Y)}
	}
	return out
}

// box is the element box of a path element.
func (p path) box() geom.Shape {
	w, h := p.size()
	return geom.Shape{X: p.origin.X, Y: p.origin.Y, W: w, H: h}
}
