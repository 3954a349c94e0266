package build

import (
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

func TestFocusDistanceCases(t *testing.T) {
	sq := geom.Shape{Type: "rectangle", W: 100, H: 100}
	if f := focusDistance(sq, geom.V(-100, 50), geom.V(-6, 50)); f != 0 {
		t.Errorf("through the centre: focus %v", f)
	}
	if f := focusDistance(sq, geom.V(-100, 70), geom.V(-6, 70)); math.Abs(f+0.4) > 1e-9 {
		t.Errorf("below the centre: focus %v, want -0.4", f)
	}
	if f := focusDistance(sq, geom.V(1, 1), geom.V(1, 1)); f != 0 {
		t.Errorf("degenerate segment: focus %v", f)
	}
	dia := geom.Shape{Type: "diamond", W: 100, H: 100}
	if f := focusDistance(dia, geom.V(-100, 25), geom.V(-6, 25)); math.Abs(f-0.5) > 1e-9 {
		t.Errorf("diamond: focus %v, want 0.5", f)
	}
}

func TestFocusDistanceRotatedTarget(t *testing.T) {
	// A square turned a quarter turn is the same square: same focus.
	sq := geom.Shape{Type: "rectangle", W: 100, H: 100}
	rot := sq
	rot.Angle = math.Pi / 2
	a, b := geom.V(-100, 70), geom.V(-6, 70)
	if f, g := focusDistance(sq, a, b), focusDistance(rot, a, b); math.Abs(f-g) > 1e-9 {
		t.Errorf("focus %v unrotated, %v rotated", f, g)
	}
}
