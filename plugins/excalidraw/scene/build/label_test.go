package build

import (
	"math"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// labelPair builds one labelled shape and returns container and text.
func labelPair(t *testing.T, in string) (*ojson.Object, *ojson.Object) {
	t.Helper()
	res := mustBuild(t, testContext(), in)
	if len(res.Elements) != 2 {
		t.Fatalf("%d elements, want container and label", len(res.Elements))
	}
	return res.Elements[0], res.Elements[1]
}

func TestLabelIsBoundBothWays(t *testing.T) {
	c, txt := labelPair(t, `{"type":"rectangle","id":"box","x":0,"y":0,"width":200,"height":100,"groupIds":["g"],"opacity":70,"label":{"text":"Hi"}}`)
	tid, _ := txt.String("id")
	if cid, _ := txt.String("containerId"); cid != "box" {
		t.Errorf("containerId %q", cid)
	}
	if got := compact(mustGet(c, "boundElements")); got != `[{"type":"text","id":"`+tid+`"}]` {
		t.Errorf("boundElements %s", got)
	}
	if got := compact(mustGet(txt, "groupIds")); got != `["g"]` {
		t.Errorf("label groupIds %s, want the container's", got)
	}
	if numberOf(t, txt, "opacity") != 70 {
		t.Error("label opacity should follow the container")
	}
	for k, want := range map[string]string{"textAlign": "center", "verticalAlign": "middle", "text": "Hi", "originalText": "Hi"} {
		if got, _ := txt.String(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

func TestLabelCentredInEachShape(t *testing.T) {
	for _, typ := range []string{"rectangle", "ellipse", "diamond"} {
		c, txt := labelPair(t, `{"type":"`+typ+`","x":100,"y":50,"width":240,"height":160,"label":{"text":"centre"}}`)
		cx := numberOf(t, c, "x") + numberOf(t, c, "width")/2
		cy := numberOf(t, c, "y") + numberOf(t, c, "height")/2
		tx := numberOf(t, txt, "x") + numberOf(t, txt, "width")/2
		ty := numberOf(t, txt, "y") + numberOf(t, txt, "height")/2
		// Excalidraw centres in the inscribed box, which Math.round can
		// shift by half a pixel.
		if math.Abs(cx-tx) > 0.5 || math.Abs(cy-ty) > 0.5 {
			t.Errorf("%s: label centre %v,%v, container centre %v,%v", typ, tx, ty, cx, cy)
		}
	}
}

func TestLabelWrapsToInnerWidth(t *testing.T) {
	long := "the quick brown fox jumps over the lazy dog again and again"
	for _, c := range []struct {
		typ   string
		inner float64
	}{
		{"rectangle", 200 - 10},
		{"ellipse", math.Round(100*math.Sqrt2) - 10},
		{"diamond", 100 - 10},
	} {
		cont, txt := labelPair(t, `{"type":"`+c.typ+`","x":0,"y":0,"width":200,"height":1000,"label":{"text":"`+long+`"}}`)
		text, _ := txt.String("text")
		want := textmetrics.Wrap(long, textmetrics.Excalifont, 20, c.inner)
		if text != want {
			t.Errorf("%s: wrapped %q, want %q", c.typ, text, want)
		}
		if numberOf(t, txt, "width") > c.inner {
			t.Errorf("%s: text width %v exceeds inner width %v", c.typ, numberOf(t, txt, "width"), c.inner)
		}
		if numberOf(t, cont, "width") != 200 || numberOf(t, cont, "height") != 1000 {
			t.Errorf("%s: container resized to %vx%v", c.typ, numberOf(t, cont, "width"), numberOf(t, cont, "height"))
		}
	}
}

func TestTallLabelGrowsContainer(t *testing.T) {
	text := strings.Repeat("line\n", 9) + "line" // 10 lines of 25px
	for _, c := range []struct {
		typ  string
		want float64
	}{
		{"rectangle", 250 + 10},
		{"ellipse", math.Round((250 + 10) / math.Sqrt2 * 2)},
		{"diamond", 2 * (250 + 10)},
	} {
		cont, txt := labelPair(t, `{"type":"`+c.typ+`","x":0,"y":0,"width":300,"height":50,"label":{"text":`+quote(text)+`}}`)
		if got := numberOf(t, cont, "height"); got != c.want {
			t.Errorf("%s: height %v, want %v", c.typ, got, c.want)
		}
		if numberOf(t, txt, "height") != 250 {
			t.Errorf("%s: text height %v", c.typ, numberOf(t, txt, "height"))
		}
	}
}

func TestLabelSizesOmittedSides(t *testing.T) {
	c, _ := labelPair(t, `{"type":"rectangle","x":0,"y":0,"label":{"text":"B"}}`)
	if numberOf(t, c, "width") != 100 || numberOf(t, c, "height") != 100 {
		t.Errorf("short label: %vx%v, want the 100x100 default", numberOf(t, c, "width"), numberOf(t, c, "height"))
	}
	long := "a label much longer than one hundred pixels"
	c, txt := labelPair(t, `{"type":"rectangle","x":0,"y":0,"label":{"text":"`+long+`"}}`)
	w := textmetrics.Measure(long, textmetrics.Excalifont, 20).Width
	if got := numberOf(t, c, "width"); got != math.Ceil(w)+10 {
		t.Errorf("width %v, want the label on one line (%v)", got, math.Ceil(w)+10)
	}
	if s, _ := txt.String("text"); s != long {
		t.Errorf("label wrapped to %q", s)
	}
}

func TestLabelAlignment(t *testing.T) {
	c, txt := labelPair(t, `{"type":"rectangle","x":10,"y":20,"width":300,"height":200,"label":{"text":"x","textAlign":"left","verticalAlign":"top"}}`)
	if numberOf(t, txt, "x") != 15 || numberOf(t, txt, "y") != 25 {
		t.Errorf("left/top label at %v,%v, want 15,25", numberOf(t, txt, "x"), numberOf(t, txt, "y"))
	}
	c, txt = labelPair(t, `{"type":"rectangle","x":10,"y":20,"width":300,"height":200,"label":{"text":"x","textAlign":"right","verticalAlign":"bottom"}}`)
	right := numberOf(t, c, "x") + 300 - 5
	bottom := numberOf(t, c, "y") + 200 - 5
	if math.Abs(numberOf(t, txt, "x")+numberOf(t, txt, "width")-right) > 1e-9 ||
		math.Abs(numberOf(t, txt, "y")+numberOf(t, txt, "height")-bottom) > 1e-9 {
		t.Errorf("right/bottom label misplaced: %s", compact(txt))
	}
}

func TestLabelStyleAndRotation(t *testing.T) {
	_, txt := labelPair(t, `{"type":"diamond","x":0,"y":0,"angle":1,"strokeColor":"#1971c2","label":{"text":"x","fontFamily":"comic-shanns","fontSize":30}}`)
	if c, _ := txt.String("strokeColor"); c != "#1971c2" {
		t.Errorf("label color %q, want the container's", c)
	}
	if numberOf(t, txt, "angle") != 1 {
		t.Errorf("label angle %v, want the container's", numberOf(t, txt, "angle"))
	}
	if numberOf(t, txt, "fontFamily") != 8 || numberOf(t, txt, "fontSize") != 30 || numberOf(t, txt, "lineHeight") != 1.25 {
		t.Errorf("typography: %s", compact(txt))
	}
	_, txt = labelPair(t, `{"type":"ellipse","x":0,"y":0,"strokeColor":"#1971c2","label":{"text":"x","strokeColor":"#2f9e44"}}`)
	if c, _ := txt.String("strokeColor"); c != "#2f9e44" {
		t.Errorf("label color %q, want its own", c)
	}
}

func TestArrowLabel(t *testing.T) {
	res := mustBuild(t, testContext(), `{"type":"arrow","id":"a","x":0,"y":0,"points":[[0,0],[200,100]],"label":{"text":"yes"}}`)
	arrow, txt := res.Elements[0], res.Elements[1]
	tid, _ := txt.String("id")
	if got := compact(mustGet(arrow, "boundElements")); got != `[{"type":"text","id":"`+tid+`"}]` {
		t.Errorf("arrow boundElements %s", got)
	}
	cx := numberOf(t, txt, "x") + numberOf(t, txt, "width")/2
	cy := numberOf(t, txt, "y") + numberOf(t, txt, "height")/2
	if math.Abs(cx-100) > 1e-9 || math.Abs(cy-50) > 1e-9 {
		t.Errorf("arrow label centred at %v,%v, want 100,50", cx, cy)
	}
	res = mustBuild(t, testContext(), `{"type":"arrow","x":0,"y":0,"points":[[0,0],[50,80],[200,0]],"label":{"text":"mid"}}`)
	txt = res.Elements[1]
	cx = numberOf(t, txt, "x") + numberOf(t, txt, "width")/2
	cy = numberOf(t, txt, "y") + numberOf(t, txt, "height")/2
	if math.Abs(cx-50) > 1e-9 || math.Abs(cy-80) > 1e-9 {
		t.Errorf("3-point arrow label centred at %v,%v, want the middle point 50,80", cx, cy)
	}
}

func mustGet(el *ojson.Object, k string) any {
	v, _ := el.Get(k)
	return v
}

func quote(s string) string {
	b, _ := ojson.Marshal(s)
	return string(b)
}
