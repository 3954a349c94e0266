package build

import (
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// LabelBox is the size of a container of type typ ("rectangle",
// "ellipse", "diamond") whose label, text in fontFamily at fontSize,
// wraps to lines at most maxWidth px wide and breaks only where
// Excalidraw may break a line, never inside a word: a word wider than
// maxWidth widens the box to it. The box is at least minW × minH. A box
// of this size built with this label (Build, or an update) keeps its
// size: layoutShapeLabel finds the text fits. What a laid-out diagram
// gives its nodes, so their labels never overflow nor split a word.
func LabelBox(typ, text string, fontFamily int, fontSize, maxWidth, minW, minH float64) (w, h float64) {
	ts := textStyle{fontSize: fontSize, fontFamily: fontFamily}
	text = textmetrics.NormalizeText(text)
	limit := maxWidth
	for _, line := range strings.Split(text, "\n") {
		for _, word := range strings.Fields(line) {
			if ww, _ := ts.measure(word); ww > limit {
				limit = ww
			}
		}
	}
	tw, _ := ts.measure(ts.wrap(text, limit))
	w = max(minW, containerDimensionForText(tw, typ))
	// The box may be wider than the text needs (minW, or rounding): the
	// label then wraps to the box's own inner width, perhaps on fewer
	// lines, which is what its height must hold.
	_, th := ts.measure(ts.wrap(text, textmetrics.BoundTextMaxWidth(typ, w, fontSize)))
	h = max(minH, containerDimensionForText(th, typ))
	return w, h
}

// ArrowLabelBox is where a label, text in fontFamily at fontSize, sits on
// an arrow through points (scene coordinates), as the builder and
// Excalidraw put it: wrapped to the arrow's label width and centred on
// its middle point, or on the middle of its middle segment.
func ArrowLabelBox(points []geom.Vec, text string, fontFamily int, fontSize float64) geom.Rect {
	ts := textStyle{fontSize: fontSize, fontFamily: fontFamily, textAlign: "center", verticalAlign: "middle"}
	_, b := arrowLabel(points, geom.BoundsOf(points).W(), textmetrics.NormalizeText(text), ts, true)
	return geom.R(b.X, b.Y, b.X+b.W, b.Y+b.H)
}
