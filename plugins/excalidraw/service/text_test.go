package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestNormalizeText(t *testing.T) {
	if got := normalizeText("a\r\nb\rc\td"); got != "a\nb\nc        d" {
		t.Fatalf("%q", got)
	}
}

func TestRemeasureKeepsAnchor(t *testing.T) {
	el := ojson.New().Set("x", 100.0).Set("width", 50.0).Set("fontSize", 20.0).Set("fontFamily", 5.0).
		Set("textAlign", "center").Set("originalText", "wide wide wide text")
	remeasureText(el)
	w := num(el, "width")
	if w <= 50 || num(el, "x")+w/2 != 125 {
		t.Fatalf("centre moved: %v", el)
	}
}

func TestPlaceLabelCentres(t *testing.T) {
	c := ojson.New().Set("type", "rectangle").Set("x", 0.0).Set("y", 0.0).Set("width", 200.0).Set("height", 100.0)
	l := ojson.New().Set("width", 40.0).Set("height", 20.0).Set("fontSize", 20.0).Set("textAlign", "center").Set("verticalAlign", "middle")
	placeLabel(c, l)
	if num(l, "x") != 80 || num(l, "y") != 40 {
		t.Fatalf("%v", l)
	}
}

func TestContainerGrowsForText(t *testing.T) {
	c := ojson.New().Set("type", "rectangle").Set("x", 0.0).Set("y", 0.0).Set("width", 60.0).Set("height", 20.0)
	l := ojson.New().Set("fontSize", 20.0).Set("fontFamily", 5.0).Set("originalText", "one two three four").
		Set("textAlign", "center").Set("verticalAlign", "middle")
	layoutLabel(c, l)
	if num(c, "height") < num(l, "height")+2*boundTextPadding {
		t.Fatalf("container %v label %v", c, l)
	}
}
