package build

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// defaultDimension is the size convertToExcalidrawElements gives a shape
// or image without one.
const defaultDimension = 100

// shapeBox is a box shape's box from its input, 100×100 by default.
func shapeBox(in *input) geom.Shape {
	return geom.Shape{
		X:     *in.X,
		Y:     *in.Y,
		W:     orFloat(in.Width, defaultDimension),
		H:     orFloat(in.Height, defaultDimension),
		Angle: normalizeAngle(orFloat(in.Angle, 0)),
	}
}

// fitLabel sizes the sides of a labelled shape that the input left out:
// at least the default 100, and wide enough for the label on one line
// (so an agent gets a readable box without measuring text), tall enough
// for it once wrapped. A given width grows to the label's widest word
// (wordsFit: no word is broken); given sides are otherwise kept, and
// layoutShapeLabel grows them only when the text does not fit.
func fitLabel(in *input, b geom.Shape, original string, ts textStyle) geom.Shape {
	if in.Width == nil {
		w, _ := ts.measure(original)
		b.W = max(defaultDimension, containerDimensionForText(w, in.Type))
	}
	b.W = wordsFit(in.Type, b.W, original, ts)
	if in.Height == nil {
		maxW := textmetrics.BoundTextMaxWidth(in.Type, b.W, ts.fontSize)
		_, h := ts.measure(ts.wrap(original, maxW))
		b.H = max(defaultDimension, containerDimensionForText(h, in.Type))
	}
	return b
}
