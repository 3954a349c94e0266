package build

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

func TestPathNormalizedAndSize(t *testing.T) {
	p := path{origin: geom.V(100, 100), rel: []geom.Vec{geom.V(10, 20), geom.V(40, -10), geom.V(-5, 30)}}
	n := p.normalized()
	if n.origin != (geom.V(110, 120)) || n.rel[0] != (geom.Vec{}) || n.rel[1] != (geom.V(30, -30)) || n.rel[2] != (geom.V(-15, 10)) {
		t.Fatalf("normalized %+v", n)
	}
	if w, h := n.size(); w != 45 || h != 40 {
		t.Fatalf("size %v x %v, want 45 x 40", w, h)
	}
	if g := n.global(2); g != (geom.V(95, 130)) {
		t.Fatalf("global %v", g)
	}
	same := path{origin: geom.V(1, 2), rel: []geom.Vec{geom.V(0, 0), geom.V(3, 4)}}
	if same.normalized().origin != same.origin {
		t.Fatal("an already normalised path moved")
	}
}

func TestInputPathShorthand(t *testing.T) {
	w, h := -30.0, 12.0
	p := inputPath(&input{X: ptr(5.0), Y: ptr(6.0), Width: &w, Height: &h})
	if p.origin != (geom.V(5, 6)) || len(p.rel) != 2 || p.rel[1] != (geom.V(-30, 12)) {
		t.Fatalf("shorthand path %+v", p)
	}
	p = inputPath(&input{X: ptr(0.0), Y: ptr(0.0)})
	if p.rel[1] != (geom.V(defaultLinearWidth, 0)) {
		t.Fatalf("default path %+v", p)
	}
}

func ptr[T any](v T) *T { return &v }
