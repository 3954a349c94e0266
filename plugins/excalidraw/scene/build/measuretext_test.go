package build

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// TestMeasureTextMatchesTheBuilder: the container MeasureText proposes is
// exactly what the builder makes for the same label, and the text's size
// is the builder's.
func TestMeasureTextMatchesTheBuilder(t *testing.T) {
	for _, typ := range []string{"rectangle", "ellipse", "diamond"} {
		fit := MeasureText("Payment service with a longer name", 5, 20, 0, typ, 220, 0)
		if fit.Container == nil || fit.Container.Width != 220 {
			t.Fatalf("%s: container %+v", typ, fit.Container)
		}
		res := mustBuild(t, testContext(), `{"type":"`+typ+`","id":"c","x":0,"y":0,"width":220,"height":10,"label":{"text":"Payment service with a longer name"}}`)
		c := byID(t, res.Elements, "c")
		if h := numberOf(t, c, "height"); h != fit.Container.Height {
			t.Errorf("%s: builder's height %v, MeasureText %v", typ, h, fit.Container.Height)
		}
		var label *ojson.Object
		for _, el := range res.Elements {
			if s, _ := el.String("containerId"); s == "c" {
				label = el
			}
		}
		if s, _ := label.String("text"); s != fit.Container.Text {
			t.Errorf("%s: builder's label %q, MeasureText %q", typ, s, fit.Container.Text)
		}
	}
	free := MeasureText("hello world", 5, 20, 0, "", 0, 0)
	res := mustBuild(t, testContext(), `{"type":"text","id":"t","x":0,"y":0,"text":"hello world"}`)
	if w := numberOf(t, byID(t, res.Elements, "t"), "width"); w != free.Width || free.Lines != 1 || free.Container != nil {
		t.Errorf("free text: builder %v, MeasureText %+v", w, free)
	}
	wrapped := MeasureText("the quick brown fox jumps over the lazy dog", 5, 20, 120, "", 0, 0)
	if wrapped.Lines < 3 || wrapped.Width != 120 {
		t.Errorf("wrapped: %+v", wrapped)
	}
}
