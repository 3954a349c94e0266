package build

import (
	"math"
	"testing"
)

func TestHaloExitAndEnter(t *testing.T) {
	h := halo{poly: shape{typ: "rectangle", w: 100, h: 100}.outline(), gap: 6}
	p := h.exit(vec{50, 50}, vec{1, 0})
	if math.Abs(p.x-106) > 1e-9 || p.y != 50 {
		t.Fatalf("exit = %v, want (106, 50)", p)
	}
	q, ok := h.enter(vec{-50, 50}, vec{1, 0}, 500)
	if !ok || math.Abs(q.x+6) > 1e-9 {
		t.Fatalf("enter = %v, %v; want (-6, 50)", q, ok)
	}
	if _, ok := h.enter(vec{-50, -50}, vec{-1, 0}, 500); ok {
		t.Fatal("a ray pointing away entered the halo")
	}
	if _, ok := h.enter(vec{-50, -20}, vec{1, 0}, 500); ok {
		t.Fatal("a ray passing 14px above entered a 6px halo")
	}
	// Passing 4px above the box is inside the 6px halo.
	if _, ok := h.enter(vec{-50, -4}, vec{1, 0}, 500); !ok {
		t.Fatal("a ray through the halo missed it")
	}
}

func TestSnapEndFallbacks(t *testing.T) {
	tg := newBindTarget("t", shape{typ: "rectangle", w: 100, h: 100}, 2, nil)
	// Adjacent point inside the target: out from the centre towards the
	// given end.
	p := snapEnd(tg, vec{200, 50}, vec{60, 50})
	if p != (vec{106, 50}) {
		t.Errorf("inside adjacent: %v, want (106, 50)", p)
	}
	// Direct hit along the segment.
	p = snapEnd(tg, vec{10, 50}, vec{-100, 50})
	if p != (vec{-6, 50}) {
		t.Errorf("direct: %v, want (-6, 50)", p)
	}
	// Zero-length last segment: aim at the centre.
	p = snapEnd(tg, vec{-100, 50}, vec{-100, 50})
	if p != (vec{-6, 50}) {
		t.Errorf("zero segment: %v, want (-6, 50)", p)
	}
}

func TestTidy(t *testing.T) {
	if got := tidy(vec{106.00000000000001, -0.0000000001}); got != (vec{106, 0}) || math.Signbit(got.y) {
		t.Fatalf("tidy = %v", got)
	}
}
