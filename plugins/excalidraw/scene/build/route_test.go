package build

import (
	"errors"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

func TestRouteBetweenRefusesOverlap(t *testing.T) {
	a := newBindTarget("a", geom.Shape{Type: "rectangle", W: 100, H: 100}, 2, nil)
	b := newBindTarget("b", geom.Shape{Type: "rectangle", X: 90, W: 100, H: 100}, 2, nil)
	if _, _, err := routeBetween(a, b); !errors.Is(err, errOverlap) {
		t.Fatalf("overlapping shapes: %v", err)
	}
	same := newBindTarget("c", geom.Shape{Type: "ellipse", W: 100, H: 100}, 2, nil)
	if _, _, err := routeBetween(same, same); !errors.Is(err, errOverlap) {
		t.Fatalf("concentric shapes: %v", err)
	}
	far := newBindTarget("d", geom.Shape{Type: "ellipse", X: 0, Y: 300, W: 100, H: 100}, 2, nil)
	s, e, err := routeBetween(a, far)
	if err != nil || s != (geom.V(50, 106)) || e != (geom.V(50, 294)) {
		t.Fatalf("vertical route %v -> %v, %v", s, e, err)
	}
}
