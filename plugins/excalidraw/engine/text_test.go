package engine

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

func TestRemeasureKeepsAnchor(t *testing.T) {
	el := ojson.New().Set("x", 100.0).Set("width", 50.0).Set("fontSize", 20.0).Set("fontFamily", 5.0).
		Set("textAlign", "center").Set("originalText", "wide wide wide text")
	remeasureText(el)
	w := scene.NumberOf(el, "width")
	if w <= 50 || scene.NumberOf(el, "x")+w/2 != 125 {
		t.Fatalf("centre moved: %v", el)
	}
}

func TestLayoutLabelCentres(t *testing.T) {
	c := ojson.New().Set("type", "rectangle").Set("x", 0.0).Set("y", 0.0).Set("width", 200.0).Set("height", 100.0).Set("angle", 0.5)
	l := ojson.New().Set("fontSize", 20.0).Set("fontFamily", 5.0).Set("originalText", "hi").Set("textAlign", "center").Set("verticalAlign", "middle")
	layoutLabel(c, l)
	if scene.NumberOf(l, "x")+scene.NumberOf(l, "width")/2 != 100 || scene.NumberOf(l, "y")+scene.NumberOf(l, "height")/2 != 50 || scene.NumberOf(l, "angle") != 0.5 {
		t.Fatalf("%v", l)
	}
}

// A move carries the label by the move, wherever it sat; a rotation turns
// it with its container; an arrow's label is not rotated.
func TestCarryLabel(t *testing.T) {
	was := ojson.New().Set("type", "rectangle").Set("x", 0.0).Set("y", 0.0).Set("angle", 0.0)
	c := was.Clone().Set("x", 30.0).Set("y", -5.0).Set("angle", 1.0)
	l := ojson.New().Set("x", 13.0).Set("y", 7.0).Set("angle", 0.0)
	carryLabel(c, was, l)
	if scene.NumberOf(l, "x") != 43 || scene.NumberOf(l, "y") != 2 || scene.NumberOf(l, "angle") != 1 {
		t.Fatalf("%v", l)
	}
	arrow := ojson.New().Set("type", "arrow").Set("x", 0.0).Set("y", 0.0)
	l = ojson.New().Set("x", 1.0).Set("y", 1.0).Set("angle", 0.0)
	carryLabel(arrow.Clone().Set("angle", 1.0), arrow, l)
	if scene.NumberOf(l, "angle") != 0 || scene.NumberOf(l, "x") != 1 {
		t.Fatalf("%v", l)
	}
}

func TestContainerGrowsForText(t *testing.T) {
	c := ojson.New().Set("type", "rectangle").Set("x", 0.0).Set("y", 0.0).Set("width", 60.0).Set("height", 20.0)
	l := ojson.New().Set("fontSize", 20.0).Set("fontFamily", 5.0).Set("originalText", "one two three four").
		Set("textAlign", "center").Set("verticalAlign", "middle")
	layoutLabel(c, l)
	if scene.NumberOf(c, "height") < scene.NumberOf(l, "height")+2*textmetrics.BoundTextPadding {
		t.Fatalf("container %v label %v", c, l)
	}
}
