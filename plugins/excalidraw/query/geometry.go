package query

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Box is an axis-aligned box in scene coordinates. As JSON:
//
//	{"x":100,"y":40,"width":220,"height":80}
type Box struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Rounded is the box with its numbers rounded as rows round them (see
// [Rows]): to integers, or to one decimal when the box is small.
func (b Box) Rounded() Box {
	r := rounder(b.Width, b.Height)
	return Box{X: r(b.X), Y: r(b.Y), Width: r(b.Width), Height: r(b.Height)}
}

// rect is the box as a [geom.Rect], for its geometry: Box is only its
// shape on the wire.
func (b Box) rect() geom.Rect { return geom.R(b.X, b.Y, b.X+b.Width, b.Y+b.Height) }

// ElementBounds is the axis-aligned box around an element as drawn,
// rotation included: [scene.ElementBounds] as a [Box].
func ElementBounds(el *ojson.Object) (Box, bool) {
	b, ok := scene.ElementBounds(el)
	if !ok {
		return Box{}, false
	}
	return boxOf(b), true
}

// Bounds is the box around all the elements (aggregate "bounds"),
// rotation-aware as in [ElementBounds]. Elements without usable numbers
// are skipped; ok is false when none is left.
func Bounds(els []*ojson.Object) (Box, bool) {
	var all geom.Rect
	have := false
	for _, el := range els {
		if el == nil {
			continue
		}
		b, ok := scene.ElementBounds(el)
		switch {
		case !ok:
		case !have:
			all, have = b, true
		default:
			all = all.Union(b)
		}
	}
	if !have {
		return Box{}, false
	}
	return boxOf(all), true
}

func boxOf(b geom.Rect) Box {
	return Box{X: b.MinX, Y: b.MinY, Width: b.MaxX - b.MinX, Height: b.MaxY - b.MinY}
}
