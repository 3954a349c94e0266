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
	in := &input{Type: "rectangle", X: ptr(0.0), Y: ptr(0.0), Width: ptr(50.0)}
	ts := textStyle{fontSize: 20, fontFamily: 5, textAlign: "center", verticalAlign: "middle"}
	b := fitLabel(in, shapeBox(in), "a label wider than fifty pixels", ts)
	if b.W != 50 {
		t.Fatalf("given width changed to %v", b.W)
	}
	if b.H <= 100 {
		t.Fatalf("height %v should grow for the wrapped label", b.H)
	}
}
