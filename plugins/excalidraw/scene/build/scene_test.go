package build

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestIndexScene(t *testing.T) {
	sc := indexScene(nil)
	n := 0
	for range sc.byID.All() {
		n++
	}
	if sc.lastIndex != "" || n != 0 {
		t.Fatalf("empty scene %+v", sc)
	}
	a := parseObject(t, `{"id":"a","type":"rectangle","index":"a1"}`)
	dup := parseObject(t, `{"id":"a","type":"ellipse","index":"a0"}`)
	del := parseObject(t, `{"id":"d","type":"rectangle","isDeleted":true,"index":"a3"}`)
	sc = indexScene([]*ojson.Object{a, dup, del})
	if got := sc.byID.Get("a"); got != a {
		t.Error("the first of two elements with one id should win")
	}
	if sc.lastIndex != "a3" {
		t.Errorf("lastIndex %q, want a3 (deleted elements keep their place)", sc.lastIndex)
	}
	if _, ok := sc.live("d"); ok {
		t.Error("deleted element reported live")
	}
	if _, ok := sc.live("zz"); ok {
		t.Error("missing element reported live")
	}
}

func TestShapeOf(t *testing.T) {
	el := parseObject(t, `{"type":"diamond","x":1,"y":2,"width":3,"height":4,"angle":0.5,"strokeWidth":4,"roundness":{"type":2}}`)
	s, sw := shapeOf(el)
	if s != (geom.Shape{Type: "diamond", X: 1, Y: 2, W: 3, H: 4, Angle: 0.5, Roundness: 2}) || sw != 4 {
		t.Fatalf("shapeOf = %+v, %v", s, sw)
	}
}
