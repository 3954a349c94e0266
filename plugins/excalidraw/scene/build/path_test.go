package build

import "testing"

func TestPathNormalizedAndSize(t *testing.T) {
	p := path{origin: vec{100, 100}, rel: []vec{{10, 20}, {40, -10}, {-5, 30}}}
	n := p.normalized()
	if n.origin != (vec{110, 120}) || n.rel[0] != (vec{}) || n.rel[1] != (vec{30, -30}) || n.rel[2] != (vec{-15, 10}) {
		t.Fatalf("normalized %+v", n)
	}
	if w, h := n.size(); w != 45 || h != 40 {
		t.Fatalf("size %v x %v, want 45 x 40", w, h)
	}
	if g := n.global(2); g != (vec{95, 130}) {
		t.Fatalf("global %v", g)
	}
	same := path{origin: vec{1, 2}, rel: []vec{{0, 0}, {3, 4}}}
	if same.normalized().origin != same.origin {
		t.Fatal("an already normalised path moved")
	}
}

func TestInputPathShorthand(t *testing.T) {
	w, h := -30.0, 12.0
	p := inputPath(&input{X: ptr(5.0), Y: ptr(6.0), Width: &w, Height: &h})
	if p.origin != (vec{5, 6}) || len(p.rel) != 2 || p.rel[1] != (vec{-30, 12}) {
		t.Fatalf("shorthand path %+v", p)
	}
	p = inputPath(&input{X: ptr(0.0), Y: ptr(0.0)})
	if p.rel[1] != (vec{defaultLinearWidth, 0}) {
		t.Fatalf("default path %+v", p)
	}
}

func ptr[T any](v T) *T { return &v }
