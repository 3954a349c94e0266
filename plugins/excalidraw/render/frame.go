package render

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// overlappingFrame is what Excalidraw draws when it exports frame f
// (getElementsOverlappingFrame over the elements it is given): those
// whose box overlaps f's bounds, touching included — with, for each that
// overlaps, the elements bound to it, a label's container and an arrow's
// bound ends — keeping only those in no frame or in f. The boxes are
// Excalidraw's for this test: an element's points (a linear element's or
// freedraw's own, a diamond's four vertices, other elements' four
// corners) rotated about their centre, not its drawn outline. An element
// brought in by another does not bring in its own relations, as in
// Excalidraw. elements are in scene order, and so is the result.
func (d *drawing) overlappingFrame(elements []*element, f *element) []*element {
	bounds := d.boundsOf(f)
	in := map[string]bool{}
	for _, e := range elements {
		if in[e.id] || !rotatedBox(e).Intersects(bounds) {
			continue
		}
		in[e.id] = true
		if list, ok := e.obj.Array("boundElements"); ok {
			for _, v := range list {
				if b, ok := v.(*ojson.Object); ok && b != nil {
					if id, _ := b.String("id"); id != "" {
						in[id] = true
					}
				}
			}
		}
		if e.typ == "text" && e.containerID != "" {
			in[e.containerID] = true
		}
		if e.typ == "arrow" {
			for _, k := range []string{"startBinding", "endBinding"} {
				if b, ok := e.obj.Object(k); ok && b != nil {
					if id, _ := b.String("elementId"); id != "" {
						in[id] = true
					}
				}
			}
		}
	}
	var out []*element
	for _, e := range elements {
		if in[e.id] && (e.frameID == "" || e.frameID == f.id) {
			out = append(out, e)
		}
	}
	return out
}

// rotatedBox is Excalidraw's getRotatedBBox: the box of an element's
// points (see overlappingFrame) rotated by its angle about the centre of
// their own box, in scene coordinates.
func rotatedBox(e *element) geom.Rect {
	var pts [][2]float64
	switch {
	case scene.IsLinear(e.typ) || e.typ == "freedraw":
		pts = e.points
	case e.typ == "diamond":
		pts = [][2]float64{{e.w / 2, 0}, {e.w, e.h / 2}, {e.w / 2, e.h}, {0, e.h / 2}}
	default:
		pts = [][2]float64{{0, 0}, {e.w, 0}, {e.w, e.h}, {0, e.h}}
	}
	if len(pts) == 0 {
		// No points: Excalidraw's box is empty (infinite bounds) and
		// overlaps nothing.
		return geom.R(math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1))
	}
	b := pointsBox(pts)
	cx, cy := (b.MinX+b.MaxX)/2, (b.MinY+b.MaxY)/2
	r := geom.R(math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1))
	for _, p := range pts {
		x, y := rotateAbout(p[0], p[1], cx, cy, e.angle)
		r.MinX, r.MinY = math.Min(r.MinX, x), math.Min(r.MinY, y)
		r.MaxX, r.MaxY = math.Max(r.MaxX, x), math.Max(r.MaxY, y)
	}
	return geom.R(r.MinX+e.x, r.MinY+e.y, r.MaxX+e.x, r.MaxY+e.y)
}
