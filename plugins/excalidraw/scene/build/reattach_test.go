package build

import (
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

func near(p, q Point, tol float64) bool { return math.Hypot(p[0]-q[0], p[1]-q[1]) <= tol }

// Carry keeps a point's place relative to the box through a move, a
// resize and a rotation; Offset tells a move from a change of shape.
func TestCarryAndOffset(t *testing.T) {
	box := parseObject(t, `{"id":"b","type":"rectangle","x":0,"y":0,"width":100,"height":50,"angle":0,"strokeWidth":2}`)
	moved := parseObject(t, `{"id":"b","type":"rectangle","x":30,"y":-10,"width":100,"height":50,"angle":0,"strokeWidth":2}`)
	resized := parseObject(t, `{"id":"b","type":"rectangle","x":0,"y":0,"width":200,"height":100,"angle":0,"strokeWidth":2}`)
	turned := parseObject(t, `{"id":"b","type":"rectangle","x":0,"y":0,"width":100,"height":50,"angle":1.5707963267948966,"strokeWidth":2}`)
	from := TargetOf(box)
	if got := from.Carry(TargetOf(moved), Point{106, 25}); !near(got, Point{136, 15}, 1e-9) {
		t.Errorf("move: %v", got)
	}
	if got := from.Carry(TargetOf(resized), Point{106, 25}); !near(got, Point{212, 50}, 1e-9) {
		t.Errorf("resize: %v", got)
	}
	// A quarter turn clockwise about the centre (50, 25): the right side's
	// middle goes to the bottom.
	if got := from.Carry(TargetOf(turned), Point{100, 25}); !near(got, Point{50, 75}, 1e-9) {
		t.Errorf("rotation: %v", got)
	}
	if d, ok := from.Offset(TargetOf(moved)); !ok || d != (Point{30, -10}) {
		t.Errorf("offset of a move: %v %v", d, ok)
	}
	for _, other := range [] /*changes of shape*/ string{
		`{"id":"b","type":"rectangle","x":0,"y":0,"width":200,"height":100,"angle":0,"strokeWidth":2}`,
		`{"id":"b","type":"ellipse","x":0,"y":0,"width":100,"height":50,"angle":0,"strokeWidth":2}`,
		`{"id":"b","type":"rectangle","x":0,"y":0,"width":100,"height":50,"angle":0,"strokeWidth":8}`,
		`{"id":"b","type":"rectangle","x":0,"y":0,"width":100,"height":50,"angle":0,"strokeWidth":2,"roundness":{"type":3}}`,
	} {
		if _, ok := from.Offset(TargetOf(parseObject(t, other))); ok {
			t.Errorf("%s counted as a move", other)
		}
		if SameOutline(box, parseObject(t, other)) {
			t.Errorf("%s has the same outline", other)
		}
	}
	if !SameOutline(box, box.Clone().Set("strokeColor", "#e03131").Set("opacity", 30)) {
		t.Error("a restyle changed the outline")
	}
}

// Reattach after a move keeps an end that was on the outline exactly
// where the move takes it when the arrow still comes from that side,
// and slides it to the near side when the move put the shape across the
// arrow's line.
func TestReattach(t *testing.T) {
	box := parseObject(t, `{"id":"b","type":"rectangle","x":0,"y":0,"width":100,"height":100,"angle":0,"strokeWidth":2}`)
	from := TargetOf(box)
	end, adjacent := Point{106, 50}, Point{400, 50} // the right side, gap 6 out
	down := TargetOf(box.Clone().Set("y", 20.0))
	if got := Reattach(from, down, end, adjacent); !near(got, Point{106, 70}, 1e-6) {
		t.Errorf("moved down: %v", got)
	}
	past := TargetOf(box.Clone().Set("x", 500.0)) // now right of the arrow's far end
	if got := Reattach(from, past, end, adjacent); !near(got, Point{494, 50}, 1e-6) {
		t.Errorf("moved past the arrow: %v, want the left side (494, 50)", got)
	}
	// An arrow running down the right side: moved a pixel left, the box
	// leaves the line through the carried end only grazing its gap. The
	// end then aims into the box instead.
	up := Point{106, -500}
	left := TargetOf(box.Clone().Set("x", -1.0))
	if left.t.pierces(vecOf(up), vecOf(left.Snap(from.Carry(left, end), up))) {
		t.Fatal("the case does not graze")
	}
	got := Reattach(from, left, end, up)
	if !left.t.pierces(vecOf(up), vecOf(got)) {
		t.Errorf("grazing: end %v, its line misses the shape", got)
	}
	if d := geom.PolygonDistance(left.t.poly, vecOf(got)); math.Abs(d-6) > 1e-3 {
		t.Errorf("grazing: end %v is %v from the outline, want 6", got, d)
	}
}

// SnapAlong keeps an end on its axis: a horizontal end segment meets the
// outline at the same height.
func TestSnapAlong(t *testing.T) {
	tg := TargetOf(parseObject(t, `{"id":"b","type":"rectangle","x":250,"y":200,"width":200,"height":100,"angle":0,"strokeWidth":2}`))
	if got := tg.SnapAlong(Point{240, 250}, Point{1, 0}); !near(got, Point{244, 250}, 1e-6) {
		t.Errorf("from the left: %v", got)
	}
	if got := tg.SnapAlong(Point{300, 250}, Point{1, 0}); !near(got, Point{244, 250}, 1e-6) {
		t.Errorf("from inside: %v", got)
	}
	if got := tg.SnapAlong(Point{350, 400}, Point{0, -1}); !near(got, Point{350, 306}, 1e-6) {
		t.Errorf("from below: %v", got)
	}
}
