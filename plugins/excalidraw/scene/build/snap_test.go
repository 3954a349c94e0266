package build

import (
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

func TestHaloExitAndEnter(t *testing.T) {
	h := halo{poly: geom.Shape{Type: "rectangle", W: 100, H: 100}.Outline(), gap: 6}
	p := h.exit(geom.V(50, 50), geom.V(1, 0))
	if math.Abs(p.X-106) > 1e-9 || p.Y != 50 {
		t.Fatalf("exit = %v, want (106, 50)", p)
	}
	q, ok := h.enter(geom.V(-50, 50), geom.V(1, 0), 500)
	if !ok || math.Abs(q.X+6) > 1e-9 {
		t.Fatalf("enter = %v, %v; want (-6, 50)", q, ok)
	}
	if _, ok := h.enter(geom.V(-50, -50), geom.V(-1, 0), 500); ok {
		t.Fatal("a ray pointing away entered the halo")
	}
	if _, ok := h.enter(geom.V(-50, -20), geom.V(1, 0), 500); ok {
		t.Fatal("a ray passing 14px above entered a 6px halo")
	}
	// Passing 4px above the box is inside the 6px halo.
	if _, ok := h.enter(geom.V(-50, -4), geom.V(1, 0), 500); !ok {
		t.Fatal("a ray through the halo missed it")
	}
}

func TestSnapEndFallbacks(t *testing.T) {
	tg := newBindTarget("t", geom.Shape{Type: "rectangle", W: 100, H: 100}, 2, nil)
	// Adjacent point inside the target: out from the centre towards the
	// given end.
	p := snapEnd(tg, geom.V(200, 50), geom.V(60, 50))
	if p != (geom.V(106, 50)) {
		t.Errorf("inside adjacent: %v, want (106, 50)", p)
	}
	// Direct hit along the segment.
	p = snapEnd(tg, geom.V(10, 50), geom.V(-100, 50))
	if p != (geom.V(-6, 50)) {
		t.Errorf("direct: %v, want (-6, 50)", p)
	}
	// Zero-length last segment: aim at the centre.
	p = snapEnd(tg, geom.V(-100, 50), geom.V(-100, 50))
	if p != (geom.V(-6, 50)) {
		t.Errorf("zero segment: %v, want (-6, 50)", p)
	}
}

func TestTidy(t *testing.T) {
	if got := tidy(geom.V(106.00000000000001, -0.0000000001)); got != (geom.V(106, 0)) || math.Signbit(got.Y) {
		t.Fatalf("tidy = %v", got)
	}
}
