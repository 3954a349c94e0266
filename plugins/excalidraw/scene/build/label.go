package build

import (
	"math"

	"github.com/dshgo/dsh/internal/jsmath"

	model "github.com/dshgo/dsh/plugins/excalidraw/scene"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// boundTextPadding is BOUND_TEXT_PADDING: the gap between a container's
// inner box and its text, on every side.
const boundTextPadding = textmetrics.BoundTextPadding

// labelStyle is a label's typography: centred in the middle unless the
// input says otherwise.
func labelStyle(l *labelInput, family int) textStyle {
	return textStyle{
		fontSize:      orFloat(l.FontSize, defaultFontSize),
		fontFamily:    family,
		textAlign:     orString(l.TextAlign, "center"),
		verticalAlign: orString(l.VerticalAlign, "middle"),
	}
}

// labelElementStyle is the bound text's own style. Its color defaults to
// the container's stroke; it shares the container's opacity, groups,
// frame and lock so that it behaves as part of the container (Excalidraw
// selects, groups and frames a container and its text together).
func labelElementStyle(container style, l *labelInput) style {
	return style{
		strokeColor:     orString(l.StrokeColor, container.strokeColor),
		backgroundColor: model.DefaultBackgroundColor,
		fillStyle:       model.DefaultFillStyle,
		strokeWidth:     model.DefaultStrokeWidth,
		strokeStyle:     model.DefaultStrokeStyle,
		roughness:       model.DefaultRoughness,
		opacity:         container.opacity,
		groupIDs:        container.groupIDs,
		frameID:         container.frameID,
		locked:          container.locked,
	}
}

// shapeLabel is the layout of a label inside a box shape.
type shapeLabel struct {
	container geom.Shape // the container, grown to fit the text if needed
	text      string     // the wrapped text
	box       geom.Shape // the text element's box
}

// layoutShapeLabel does what Excalidraw's redrawTextBoundingBox does when
// text is bound to a rectangle, ellipse or diamond: wrap the text to the
// container's inner width, grow the container when the text is taller
// (or, when a word cannot break, wider) than the inner box, then place
// the text in the inner box by its alignment.
func layoutShapeLabel(typ string, c geom.Shape, original string, ts textStyle) shapeLabel {
	maxW := textmetrics.BoundTextMaxWidth(typ, c.W, ts.fontSize)
	text := ts.wrap(original, maxW)
	tw, th := ts.measure(text)
	if th > boundTextMaxHeight(typ, c.H) {
		c.H = containerDimensionForText(th, typ)
	}
	if tw > maxW {
		c.W = containerDimensionForText(tw, typ)
	}
	maxW = textmetrics.BoundTextMaxWidth(typ, c.W, ts.fontSize)
	maxH := boundTextMaxHeight(typ, c.H)

	ox, oy := containerInnerOffset(typ, c.W, c.H)
	t := geom.Shape{X: c.X + ox, Y: c.Y + oy, W: tw, H: th, Angle: c.Angle}
	switch ts.textAlign {
	case "center":
		t.X += maxW/2 - tw/2
	case "right":
		t.X += maxW - tw
	}
	switch ts.verticalAlign {
	case "middle":
		t.Y += maxH/2 - th/2
	case "bottom":
		t.Y += maxH - th
	}
	return shapeLabel{container: c, text: text, box: t}
}

// boundTextMaxHeight is getBoundTextMaxHeight for box shapes: the height
// of the largest box inscribed in the shape, less padding.
func boundTextMaxHeight(typ string, h float64) float64 {
	switch typ {
	case "ellipse":
		return jsmath.Round(h/2*math.Sqrt2) - boundTextPadding*2
	case "diamond":
		return jsmath.Round(h/2) - boundTextPadding*2
	}
	return h - boundTextPadding*2
}

// containerDimensionForText is computeContainerDimensionForBoundText: the
// container width or height whose inner box holds a text of this size.
func containerDimensionForText(size float64, typ string) float64 {
	size = math.Ceil(size)
	padding := float64(boundTextPadding * 2)
	switch typ {
	case "ellipse":
		return jsmath.Round((size + padding) / math.Sqrt2 * 2)
	case "diamond":
		return 2 * (size + padding)
	case "arrow":
		return size + padding*8
	}
	return size + padding
}

// containerInnerOffset is getContainerCoords: where the inner box starts
// relative to the container's corner.
func containerInnerOffset(typ string, w, h float64) (float64, float64) {
	ox, oy := float64(boundTextPadding), float64(boundTextPadding)
	switch typ {
	case "ellipse":
		ox += w / 2 * (1 - math.Sqrt2/2)
		oy += h / 2 * (1 - math.Sqrt2/2)
	case "diamond":
		ox += w / 4
		oy += h / 4
	}
	return ox, oy
}

// arrowLabel lays out an arrow's label as LinearElementEditor does: wrapped
// to 70% of the arrow's width (at least 11 × fontSize) and centred on the
// arrow's middle point, or on the middle of its middle segment when it
// has an even number of points. (For a curved arrow with 4 or more points
// Excalidraw measures that middle on the curve; the builder uses the
// straight segment, and the editor re-centres the label on the first
// edit.)
//
// With whole, as the builder fits a label, the label wraps only between
// words: to the widest word when that is wider (the label may then be
// wider than the arrow, which lint's label_wider_than_arrow tells).
func arrowLabel(global []geom.Vec, arrowWidth float64, original string, ts textStyle, whole bool) (string, geom.Shape) {
	limit := textmetrics.BoundTextMaxWidth("arrow", arrowWidth, ts.fontSize)
	if whole {
		limit = max(limit, ts.widestWord(original))
	}
	text := ts.wrap(original, limit)
	tw, th := ts.measure(text)
	n := len(global)
	mid := global[n/2]
	if n%2 == 0 {
		mid = global[n/2-1].Lerp(global[n/2], 0.5)
	}
	return text, geom.Shape{X: mid.X - tw/2, Y: mid.Y - th/2, W: tw, H: th}
}

// wordsFit is the width w of a container of type typ, widened if need be
// so that the widest word of its label fits on a line: Excalidraw breaks
// a word wider than the label may be by characters ("Authenticatio/n"),
// which no agent means. A wide enough w is kept.
func wordsFit(typ string, w float64, original string, ts textStyle) float64 {
	word := ts.widestWord(original)
	if textmetrics.BoundTextMaxWidth(typ, w, ts.fontSize) >= word {
		return w
	}
	w = max(w, containerDimensionForText(word, typ))
	for textmetrics.BoundTextMaxWidth(typ, w, ts.fontSize) < word {
		w = math.Floor(w) + 1 // rounding in the ellipse's inner box
	}
	return w
}

// labelElement makes the bound text element.
func labelElement(id, containerID, text, original string, b geom.Shape, ts textStyle, s style, st stamp) *ojson.Object {
	return textFields(baseElement(id, "text", b, s, st), text, original, ts, containerID, true)
}
