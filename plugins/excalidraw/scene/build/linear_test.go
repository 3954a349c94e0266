package build

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

func TestLinearFieldsOrder(t *testing.T) {
	p := path{origin: geom.V(1, 2), rel: []geom.Vec{geom.V(0, 0), geom.V(3, 4)}}
	line := linearFields(baseElement("l", "line", p.box(), style{}, stamp{}), p, nil, nil, nil, nil, nil)
	if line.Has("elbowed") {
		t.Error("lines have no elbowed field in 0.18")
	}
	arrow := linearFields(baseElement("a", "arrow", p.box(), style{}, stamp{}), p, nil, nil, nil, "arrow", false)
	keys := arrow.Keys()
	if keys[len(keys)-1] != "elbowed" {
		t.Errorf("arrow keys end with %q", keys[len(keys)-1])
	}
}

func TestFreedrawSimulatePressure(t *testing.T) {
	in := &input{X: ptr(0.0), Y: ptr(0.0), Points: [][2]float64{{0, 0}, {1, 1}}, SimulatePressure: ptr(false)}
	el := buildFreedraw("f", in, style{}, stamp{})
	if sim, _ := el.Bool("simulatePressure"); sim {
		t.Error("explicit simulatePressure false was ignored")
	}
}
