package build

import (
	"errors"
	"testing"
)

func TestRouteBetweenRefusesOverlap(t *testing.T) {
	a := newBindTarget("a", shape{typ: "rectangle", w: 100, h: 100}, 2, nil)
	b := newBindTarget("b", shape{typ: "rectangle", x: 90, w: 100, h: 100}, 2, nil)
	if _, _, err := routeBetween(a, b); !errors.Is(err, errOverlap) {
		t.Fatalf("overlapping shapes: %v", err)
	}
	same := newBindTarget("c", shape{typ: "ellipse", w: 100, h: 100}, 2, nil)
	if _, _, err := routeBetween(same, same); !errors.Is(err, errOverlap) {
		t.Fatalf("concentric shapes: %v", err)
	}
	far := newBindTarget("d", shape{typ: "ellipse", x: 0, y: 300, w: 100, h: 100}, 2, nil)
	s, e, err := routeBetween(a, far)
	if err != nil || s != (vec{50, 106}) || e != (vec{50, 294}) {
		t.Fatalf("vertical route %v -> %v, %v", s, e, err)
	}
}
