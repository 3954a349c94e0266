package build

import (
	"math"
	"testing"
)

func TestFocusDistanceCases(t *testing.T) {
	sq := shape{typ: "rectangle", w: 100, h: 100}
	if f := focusDistance(sq, vec{-100, 50}, vec{-6, 50}); f != 0 {
		t.Errorf("through the centre: focus %v", f)
	}
	if f := focusDistance(sq, vec{-100, 70}, vec{-6, 70}); math.Abs(f+0.4) > 1e-9 {
		t.Errorf("below the centre: focus %v, want -0.4", f)
	}
	if f := focusDistance(sq, vec{1, 1}, vec{1, 1}); f != 0 {
		t.Errorf("degenerate segment: focus %v", f)
	}
	dia := shape{typ: "diamond", w: 100, h: 100}
	if f := focusDistance(dia, vec{-100, 25}, vec{-6, 25}); math.Abs(f-0.5) > 1e-9 {
		t.Errorf("diamond: focus %v, want 0.5", f)
	}
}

func TestFocusDistanceRotatedTarget(t *testing.T) {
	// A square turned a quarter turn is the same square: same focus.
	sq := shape{typ: "rectangle", w: 100, h: 100}
	rot := sq
	rot.angle = math.Pi / 2
	a, b := vec{-100, 70}, vec{-6, 70}
	if f, g := focusDistance(sq, a, b), focusDistance(rot, a, b); math.Abs(f-g) > 1e-9 {
		t.Errorf("focus %v unrotated, %v rotated", f, g)
	}
}
