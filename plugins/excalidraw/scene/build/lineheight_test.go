package build

import (
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// One geometry for text: an existing element's lineHeight sets its
// height in every layout (LayoutLabel, FitText) and in measure_text when
// given; the family's default stands in only when it is absent or not a
// positive number.
func TestLayoutsUseTheElementsLineHeight(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	el := func(lh any) *ojson.Object {
		o := ojson.New().Set("type", "text").Set("id", "t").Set("x", 0.0).Set("y", 0.0).Set("width", 10.0).
			Set("text", "a\nb").Set("originalText", "a\nb").Set("fontSize", 20.0).Set("fontFamily", 5).
			Set("textAlign", "left").Set("verticalAlign", "top").Set("autoResize", true)
		if lh != nil {
			o.Set("lineHeight", lh)
		}
		return o
	}
	def := textmetrics.LineHeight(5)
	for _, c := range []struct {
		lh   any
		want float64
	}{{1.77, 1.77}, {1.0, 1.0}, {nil, def}, {0.0, def}, {-2.0, def}, {"x", def}} {
		if got := LineHeightOf(el(c.lh)); !near(got, c.want) {
			t.Errorf("LineHeightOf(lineHeight %v) = %v, want %v", c.lh, got, c.want)
		}
		if got := FitText(el(c.lh)).Height; !near(got, 2*20*c.want) {
			t.Errorf("FitText height with lineHeight %v = %v, want %v", c.lh, got, 2*20*c.want)
		}
		box := ojson.New().Set("type", "rectangle").Set("id", "r").Set("x", 0.0).Set("y", 0.0).Set("width", 200.0).Set("height", 40.0)
		if got := LayoutLabel(box, el(c.lh).Set("containerId", "r")).Height; !near(got, 2*20*c.want) {
			t.Errorf("LayoutLabel height with lineHeight %v = %v, want %v", c.lh, got, 2*20*c.want)
		}
	}
	if fit := MeasureText("a\nb", 5, 20, 0, "", 0, 1.77); !near(fit.Height, 2*20*1.77) || fit.LineHeight != 1.77 {
		t.Errorf("measure_text with line height 1.77: %+v", fit)
	}
	if fit := MeasureText("a\nb", 5, 20, 0, "", 0, 0); !near(fit.Height, 2*20*def) || fit.LineHeight != def {
		t.Errorf("measure_text without line height: %+v", fit)
	}
}
