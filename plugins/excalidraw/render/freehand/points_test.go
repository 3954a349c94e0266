package freehand

import (
	"math"
	"testing"
)

func TestStrokePointsEmpty(t *testing.T) {
	if sp := StrokePoints(nil, DefaultOptions()); sp != nil {
		t.Errorf("no input: %v", sp)
	}
}

func TestStrokePointsOnePoint(t *testing.T) {
	// One point gains a second one unit down and right; the stroke is
	// shorter than Size, but the last point is always kept.
	sp := StrokePoints([][3]float64{{10, 10, 0.8}}, Options{Size: 8, Streamline: 0.5, Last: true})
	if len(sp) != 2 {
		t.Fatalf("%d points: %+v", len(sp), sp)
	}
	if sp[0].Pressure != 0.8 || sp[1].Pressure != 0.8 || sp[1].Point != (vec{11, 11}) {
		t.Errorf("points %+v", sp)
	}
	want := unit(vec{-1, -1})
	if sp[0].Vector != want || sp[1].Vector != want || sp[1].Distance != math.Sqrt2 {
		t.Errorf("vectors %+v", sp)
	}
}

func TestStrokePointsMissingPressures(t *testing.T) {
	nan := math.NaN()
	sp := StrokePoints([][3]float64{{0, 0, nan}, {10, 0, -1}, {20, 0, nan}}, Options{Size: 1, Streamline: 1})
	if len(sp) != 3 || sp[0].Pressure != 0.25 || sp[1].Pressure != 0.5 || sp[2].Pressure != 0.5 {
		t.Errorf("%+v", sp)
	}
}

func TestStrokePointsTwoPointsSpread(t *testing.T) {
	// Two points become five, the four new ones without pressure; with no
	// streamlining (pull 1) they are where they were put.
	sp := StrokePoints([][3]float64{{0, 0, 0.9}, {8, 0, 0.9}}, Options{Size: 1, Streamline: 0, Last: true})
	if len(sp) != 5 {
		t.Fatalf("%d points", len(sp))
	}
	for i, p := range sp {
		if p.Point != (vec{2 * float64(i), 0}) {
			t.Errorf("point %d at %v", i, p.Point)
		}
		if want := map[bool]float64{true: 0.9, false: 0.5}[i == 0]; p.Pressure != want {
			t.Errorf("point %d pressure %v, want %v", i, p.Pressure, want)
		}
	}
	if sp[4].RunningLength != 8 {
		t.Errorf("length %v", sp[4].RunningLength)
	}
}

func TestStrokePointsStreamline(t *testing.T) {
	in := [][3]float64{{0, 0, 0.5}, {10, 0, 0.5}, {20, 0, 0.5}}
	// Streamline 0.5 pulls each point 0.575 of the way from the last one.
	sp := StrokePoints(in, Options{Size: 1, Streamline: 0.5})
	if got := sp[1].Point[0]; got != 5.75 {
		t.Errorf("first pull: %v", got)
	}
	if got := sp[2].Point[0]; math.Abs(got-(5.75+0.575*(20-5.75))) > 1e-12 {
		t.Errorf("second pull: %v", got)
	}
	// Last keeps the final point where it is.
	sp = StrokePoints(in, Options{Size: 1, Streamline: 0.5, Last: true})
	if got := sp[2].Point[0]; got != 20 {
		t.Errorf("last: %v", got)
	}
}

func TestStrokePointsMinimumLength(t *testing.T) {
	// Points are dropped until the spine is Size long; then all are kept,
	// and repeated points never are.
	in := [][3]float64{{0, 0, 0.5}, {1, 0, 0.5}, {2, 0, 0.5}, {2, 0, 0.5}, {20, 0, 0.5}, {21, 0, 0.5}, {22, 0, 0.5}}
	sp := StrokePoints(in, Options{Size: 10, Streamline: 0, Last: true})
	var xs []float64
	for _, p := range sp {
		xs = append(xs, p.Point[0])
	}
	if len(xs) != 4 || xs[1] != 20 || xs[3] != 22 {
		t.Errorf("kept x = %v", xs)
	}
}
