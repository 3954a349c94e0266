package build

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

func TestShapeBoxDefaults(t *testing.T) {
	b := shapeBox(&input{X: ptr(3.0), Y: ptr(4.0)})
	if b != (geom.Shape{X: 3, Y: 4, W: 100, H: 100}) {
		t.Fatalf("default box %+v", b)
	}
	b = shapeBox(&input{X: ptr(0.0), Y: ptr(0.0), Width: ptr(20.0), Height: ptr(30.0), Angle: ptr(-1.0)})
	if b.W != 20 || b.H != 30 || b.Angle <= 0 {
		t.Fatalf("given box %+v", b)
	}
}

func TestFitLabelKeepsGivenSides(t *testing.T) {
	in := &input{Type: "rectangle", X: ptr(0.0), Y: ptr(0.0), Width: ptr(120.0)}
	ts := textStyle{fontSize: 20, fontFamily: 5, textAlign: "center", verticalAlign: "middle"}
	b := fitLabel(in, shapeBox(in), "a label wider than one hundred and twenty pixels", ts)
	if b.W != 120 {
		t.Fatalf("given width changed to %v", b.W)
	}
	if b.H <= 100 {
		t.Fatalf("height %v should grow for the wrapped label", b.H)
	}
}

// TestLabelWordsStayWhole: a label in a fixed box too narrow for one of
// its words widens the box to the word, in every box shape, rather than
// break it by characters; an arrow's label wraps between words only.
func TestLabelWordsStayWhole(t *testing.T) {
	for _, typ := range []string{"rectangle", "ellipse", "diamond"} {
		res := mustBuild(t, testContext(), `{"type":"`+typ+`","id":"c","x":0,"y":0,"width":60,"height":60,"label":{"text":"Authentication PostgreSQL"}}`)
		var text string
		for _, el := range res.Elements {
			if s, _ := el.String("containerId"); s == "c" {
				text, _ = el.String("text")
			}
		}
		if text != "Authentication\nPostgreSQL" {
			t.Errorf("%s: label %q, want the words whole", typ, text)
		}
		if w := numberOf(t, byID(t, res.Elements, "c"), "width"); w <= 60 {
			t.Errorf("%s: width %v, not widened", typ, w)
		}
	}
	res := mustBuild(t, testContext(), `{"type":"rectangle","id":"a","x":0,"y":0,"width":50,"height":50}`,
		`{"type":"arrow","id":"r","x":0,"y":100,"points":[[0,0],[40,0]],"label":{"text":"Observability-PostgreSQLReplicationSlot","fontSize":36}}`)
	for _, el := range res.Elements {
		if s, _ := el.String("containerId"); s == "r" {
			if text, _ := el.String("text"); text != "Observability-\nPostgreSQLReplicationSlot" {
				t.Errorf("arrow label %q, want it broken only after the hyphen", text)
			}
		}
	}
	free := mustBuild(t, testContext(), `{"type":"text","id":"t","x":0,"y":0,"width":30,"text":"Authentication"}`)
	if s, _ := byID(t, free.Elements, "t").String("text"); s != "Authentication" {
		t.Errorf("fixed-width text %q, want the word whole", s)
	}
}
