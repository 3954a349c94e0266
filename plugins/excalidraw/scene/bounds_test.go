package scene

import (
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func boundsOf(els ...*ojson.Object) *geom.Rect {
	var a boundsAcc
	for _, el := range els {
		a.addElement(el)
	}
	return a.result()
}

func near(a, b geom.Rect) bool {
	const eps = 1e-9
	return math.Abs(a.MinX-b.MinX) < eps && math.Abs(a.MinY-b.MinY) < eps && math.Abs(a.MaxX-b.MaxX) < eps && math.Abs(a.MaxY-b.MaxY) < eps
}

func TestBoundsBoxes(t *testing.T) {
	r := baseElement("r", "rectangle", 10, 20, 100, 50)
	e := baseElement("e", "ellipse", -30, 0, 10, 10)
	if got := *boundsOf(r, e); !near(got, geom.R(-30, 0, 110, 70)) {
		t.Errorf("got %+v", got)
	}
	neg := baseElement("n", "rectangle", 10, 10, -20, 5)
	if got := *boundsOf(neg); !near(got, geom.R(-10, 10, 10, 15)) {
		t.Errorf("negative width: %+v", got)
	}
}

func TestBoundsRotation(t *testing.T) {
	// A 100×50 box turned a quarter turn around its centre (50, 25)
	// becomes a 50×100 box around the same centre.
	r := baseElement("r", "rectangle", 0, 0, 100, 50).Set("angle", math.Pi/2)
	if got := *boundsOf(r); !near(got, geom.R(25, -25, 75, 75)) {
		t.Errorf("got %+v", got)
	}
}

func TestBoundsPoints(t *testing.T) {
	a := arrow("a", "", "").Set("x", num(100)).Set("y", num(100)).
		Set("points", []any{[]any{num(0), num(0)}, []any{num(-50), num(30)}, []any{num(20), num(-10)}})
	if got := *boundsOf(a); !near(got, geom.R(50, 90, 120, 130)) {
		t.Errorf("got %+v", got)
	}
}

func TestBoundsSkipsUnusable(t *testing.T) {
	bad := rect("x").Set("x", "oops")
	if b := boundsOf(bad); b != nil {
		t.Errorf("got %+v", b)
	}
	// A stroke with no usable points draws nothing but sits at (x, y).
	empty := freedrawEl("f").Set("points", []any{[]any{"a", num(1)}}).Set("x", num(7)).Set("y", num(8))
	if b := boundsOf(bad, empty); b == nil || !near(*b, geom.R(7, 8, 7, 8)) {
		t.Errorf("empty stroke: %+v", b)
	}
}

func TestElementBoundsRotatedShapes(t *testing.T) {
	// An ellipse's extent is exact, not its rotated box's: a circle
	// keeps its box at any angle; a diamond is bounded by its vertices.
	c := baseElement("c", "ellipse", 0, 0, 100, 100).Set("angle", math.Pi/4)
	if got, ok := ElementBounds(c); !ok || !near(got, geom.R(0, 0, 100, 100)) {
		t.Errorf("rotated circle: %+v %v", got, ok)
	}
	d := baseElement("d", "diamond", 0, 0, 100, 100).Set("angle", math.Pi/4)
	r := 50 / math.Sqrt2 // a vertex 50 from the centre turned 45° lands on the diagonal
	if got, ok := ElementBounds(d); !ok || !near(got, geom.R(50-r, 50-r, 50+r, 50+r)) {
		t.Errorf("rotated diamond: %+v %v", got, ok)
	}
	if _, ok := ElementBounds(rect("x").Set("x", "oops")); ok {
		t.Error("unusable x gave bounds")
	}
}
