package engine

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestSetPointsRebases(t *testing.T) {
	el := ojson.New().Set("x", 10.0).Set("y", 10.0)
	setPoints(el, []point{{5, 5}, {15, -5}})
	if scene.NumberOf(el, "x") != 15 || scene.NumberOf(el, "y") != 15 || scene.NumberOf(el, "width") != 10 || scene.NumberOf(el, "height") != 10 {
		t.Fatalf("%v", el)
	}
	if pts := pointsOf(el); pts[0] != (point{}) || pts[1] != (point{10, -10}) {
		t.Fatalf("%v", pts)
	}
	if g := globalPoints(el); g[0] != (point{15, 15}) || g[1] != (point{25, 5}) {
		t.Fatalf("global points %v", g)
	}
	setGlobalPoints(el, []point{{0, 0}, {30, 40}})
	if scene.NumberOf(el, "x") != 0 || scene.NumberOf(el, "y") != 0 || scene.NumberOf(el, "width") != 30 || scene.NumberOf(el, "height") != 40 {
		t.Fatalf("%v", el)
	}
	if _, ok := readPoints([]any{[]any{1.0}}); ok {
		t.Fatal("short pair accepted")
	}
	if _, ok := readPoints([]any{[]any{2e6, 0.0}}); ok {
		t.Fatal("far point accepted")
	}
}
