package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestSetPointsRebases(t *testing.T) {
	el := ojson.New().Set("x", 10.0).Set("y", 10.0)
	setPoints(el, []point{{5, 5}, {15, -5}})
	if num(el, "x") != 15 || num(el, "y") != 15 || num(el, "width") != 10 || num(el, "height") != 10 {
		t.Fatalf("%v", el)
	}
	if pts := pointsOf(el); pts[0] != (point{}) || pts[1] != (point{10, -10}) {
		t.Fatalf("%v", pts)
	}
	if c := centre(el); c != (point{20, 10}) {
		t.Fatalf("centre %v", c)
	}
	if _, ok := readPoints([]any{[]any{1.0}}); ok {
		t.Fatal("short pair accepted")
	}
	if _, ok := readPoints([]any{[]any{2e6, 0.0}}); ok {
		t.Fatal("far point accepted")
	}
}
