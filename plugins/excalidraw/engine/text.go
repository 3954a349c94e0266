package engine

import (
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// textField sets the text of a text element, or of a container's label;
// originalText and text both take it (wrapping comes with the layout,
// see relayout). A text equal to the one the element has changes
// nothing.
func textField(p *patcher, v any) string {
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "text must be a non-empty string"
	}
	if p.typ != "text" && p.label == nil {
		return "text applies only to text elements and to elements with a label; give one a label with label: {text}"
	}
	s = textmetrics.NormalizeText(s)
	t := p.target("text")
	if s == build.OriginalText(t) {
		return "" // the text it has: nothing to lay out again
	}
	t.Set("text", s)
	t.Set("originalText", s)
	p.textChanged = true
	return ""
}

// remeasureText sizes a free text element to its text as the builder
// sizes a new one (build.FitTextWords): an auto-resizing text takes its
// text unwrapped, a fixed-width one (autoResize false) keeps its width,
// widened to its widest word, and wraps to it. The point its alignment
// anchors (left edge, centre or right edge) stays in place, as the editor
// keeps it when a font changes.
func remeasureText(t *ojson.Object) {
	lay := build.FitTextWords(t)
	oldW := scene.NumberOf(t, "width")
	t.Set("text", lay.Text)
	t.Set("width", lay.Width)
	t.Set("height", lay.Height)
	build.MarkMeasure(t)
	switch scene.StringOf(t, "textAlign") {
	case "center":
		t.Set("x", scene.NumberOf(t, "x")+(oldW-lay.Width)/2)
	case "right":
		t.Set("x", scene.NumberOf(t, "x")+oldW-lay.Width)
	}
}

// layoutLabel lays out the label t of container c as the builder lays out
// a new label (build.FitLabel): wrapped to the container, the container
// grown if the text does not fit (wider for a word that would break), placed
// by its alignment (an arrow's label centred on the arrow's middle, broken
// between words only), rotated with it.
func layoutLabel(c, t *ojson.Object) {
	lay := build.FitLabel(c, t)
	t.Set("text", lay.Text)
	t.Set("x", lay.X)
	t.Set("y", lay.Y)
	t.Set("width", lay.Width)
	t.Set("height", lay.Height)
	t.Set("angle", lay.Angle)
	build.MarkMeasure(t)
	if scene.IsLinear(scene.StringOf(c, "type")) {
		return
	}
	if scene.NumberOf(c, "width") != lay.ContainerWidth {
		c.Set("width", lay.ContainerWidth)
	}
	if scene.NumberOf(c, "height") != lay.ContainerHeight {
		c.Set("height", lay.ContainerHeight)
	}
}

// carryLabel keeps a label with its container after an update that did
// not change the layout (was is the container before it): a move moves
// the label by as much, wherever in the container it sat, and a rotation
// turns it with the container, as the editor does. Nothing is
// re-centred, so a label the editor placed stays where it was.
func carryLabel(c, was, t *ojson.Object) {
	if dx := scene.NumberOf(c, "x") - scene.NumberOf(was, "x"); dx != 0 {
		t.Set("x", scene.NumberOf(t, "x")+dx)
	}
	if dy := scene.NumberOf(c, "y") - scene.NumberOf(was, "y"); dy != 0 {
		t.Set("y", scene.NumberOf(t, "y")+dy)
	}
	if !scene.IsLinear(scene.StringOf(c, "type")) && scene.NumberOf(c, "angle") != scene.NumberOf(was, "angle") {
		t.Set("angle", scene.NumberOf(c, "angle"))
	}
}
