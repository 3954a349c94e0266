package render

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

func doc(t testing.TB, elements string) *scene.Document {
	t.Helper()
	d, err := scene.Parse([]byte(`{"type":"excalidraw","version":2,"source":"test","elements":[`+elements+`],"appState":{"viewBackgroundColor":"#ffffff"},"files":{}}`), scene.Limits{}.ForReading())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

const (
	rectA   = `{"type":"rectangle","id":"a","x":0,"y":0,"width":200,"height":100,"seed":1,"strokeColor":"#1e1e1e","backgroundColor":"transparent","boundElements":[{"type":"text","id":"la"}]}`
	labelA  = `{"type":"text","id":"la","x":75,"y":37.5,"width":50,"height":25,"seed":2,"text":"Alpha","originalText":"Alpha","fontSize":20,"fontFamily":5,"textAlign":"center","verticalAlign":"middle","containerId":"a","lineHeight":1.25}`
	rectB   = `{"type":"rectangle","id":"b","x":400,"y":0,"width":200,"height":100,"seed":3}`
	arrowAB = `{"type":"arrow","id":"ab","x":200,"y":50,"width":200,"height":0,"seed":4,"points":[[0,0],[200,0]],"boundElements":[{"type":"text","id":"lab"}],"endArrowhead":"arrow","startArrowhead":null,"roughness":0}`
	labelAB = `{"type":"text","id":"lab","x":0,"y":0,"width":40,"height":25,"seed":5,"text":"go","originalText":"go","fontSize":20,"fontFamily":5,"textAlign":"center","verticalAlign":"middle","containerId":"ab","lineHeight":1.25}`
	frameF  = `{"type":"frame","id":"f","x":-100,"y":300,"width":300,"height":200,"seed":6,"name":"Plan"}`
	inF     = `{"type":"ellipse","id":"e","x":-150,"y":350,"width":100,"height":100,"seed":7,"frameId":"f"}`
	deleted = `{"type":"rectangle","id":"gone","x":5000,"y":5000,"width":10,"height":10,"seed":8,"isDeleted":true}`
)

func TestDrawOrdersLabelsAfterTheirContainers(t *testing.T) {
	pic, err := Draw(doc(t, strings.Join([]string{labelA, rectA, rectB}, ",")), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, it := range pic.Items {
		ids = append(ids, it.ID)
	}
	if strings.Join(ids, " ") != "a la b" {
		t.Fatalf("paint order %v, want a, its label, b", ids)
	}
	if pic.Items[1].Text == nil || pic.Items[1].Text.Lines[0].Text != "Alpha" || pic.Items[1].Text.Anchor != AnchorMiddle {
		t.Fatalf("label item %+v", pic.Items[1].Text)
	}
}

// The view is the drawn elements' box plus the padding, as Excalidraw's
// export sizes its canvas; deleted elements count for nothing.
func TestDrawFitsTheElementsPlusPadding(t *testing.T) {
	pic, err := Draw(doc(t, strings.Join([]string{rectA, labelA, rectB, deleted}, ",")), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if v := pic.View; v != (geom.R(-10, -10, 610, 110)) {
		t.Fatalf("view %+v", v)
	}
	if w, h := pic.PixelSize(); w != 620 || h != 120 {
		t.Fatalf("pixels %d × %d", w, h)
	}
	o := DefaultOptions()
	o.Scale = 1.5
	pic, _ = Draw(doc(t, rectA), o)
	if w, h := pic.PixelSize(); w != 330 || h != 180 {
		t.Fatalf("at 1.5: %d × %d, want 330 × 180 (Excalidraw truncates)", w, h)
	}
}

// An arrow's label sits at the arrow's middle, whatever its stored x and
// y, and the arrow leaves a gap there.
func TestArrowLabelIsPlacedOnTheArrow(t *testing.T) {
	pic, err := Draw(doc(t, strings.Join([]string{arrowAB, labelAB}, ",")), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var arrow, label *Item
	for i := range pic.Items {
		switch pic.Items[i].ID {
		case "ab":
			arrow = &pic.Items[i]
		case "lab":
			label = &pic.Items[i]
		}
	}
	if arrow == nil || label == nil {
		t.Fatalf("items %+v", pic.Items)
	}
	b := pic.Bounds["lab"]
	if math.Abs((b.MinX+b.MaxX)/2-300) > 0.5 || math.Abs((b.MinY+b.MaxY)/2-50) > 0.5 {
		t.Fatalf("label box %+v, want centred on (300, 50)", b)
	}
	if k := arrow.Knockout; k == nil || math.Abs(k.MinX-280) > 0.5 || math.Abs(k.W()-40) > 0.01 {
		t.Fatalf("knockout %+v", arrow.Knockout)
	}
	// The arrow and both lines of its head.
	if n := len(arrow.Shapes); n != 3 {
		t.Fatalf("%d shapes, want shaft and two head lines", n)
	}
}

func TestFramesHaveTheirNameAndClipTheirChildren(t *testing.T) {
	pic, err := Draw(doc(t, strings.Join([]string{frameF, inF}, ",")), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(pic.Items) != 3 || pic.Items[0].Text == nil || pic.Items[0].Text.Lines[0].Text != "Plan" || pic.Items[1].ID != "f" {
		t.Fatalf("items: %+v", pic.Items)
	}
	e := pic.Items[2]
	if e.ID != "e" || e.Clip == nil || e.Clip.FrameID != "f" || e.Clip.Box != (geom.R(0, 0, 300, 200)) {
		t.Fatalf("child %+v clip %+v", e.ID, e.Clip)
	}
	// The child sticks out of the frame, but the frame bounds the picture:
	// its name above, the frame, the padding.
	if v := pic.View; v.MinX != -110 || v.MaxX != 210 || v.MinY >= 300-3-17 || v.MaxY != 510 {
		t.Fatalf("view %+v", v)
	}
	// Options.IDs of a frame bring its children.
	o := DefaultOptions()
	o.IDs = []string{"f"}
	pic, _ = Draw(doc(t, strings.Join([]string{frameF, inF, rectB}, ",")), o)
	if len(pic.Order) != 2 {
		t.Fatalf("frame selection drew %v", pic.Order)
	}
}

func TestDrawRefusesNothingAndTooMuch(t *testing.T) {
	o := DefaultOptions()
	o.IDs = []string{"nope"}
	if _, err := Draw(doc(t, rectA), o); !errors.Is(err, ErrEmpty) {
		t.Fatalf("no match: %v", err)
	}
	o = DefaultOptions()
	o.MaxPixels = 1000
	if _, err := Draw(doc(t, rectA), o); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over budget: %v", err)
	}
	// A region shows only what it meets.
	o = DefaultOptions()
	o.Region = &geom.Rect{MinX: 390, MinY: -10, MaxX: 610, MaxY: 110}
	pic, err := Draw(doc(t, strings.Join([]string{rectA, labelA, rectB}, ",")), o)
	if err != nil || len(pic.Order) != 1 || pic.Order[0] != "b" {
		t.Fatalf("region drew %v (%v)", pic.Order, err)
	}
}

func TestDrawDoesNotChangeTheDocument(t *testing.T) {
	d := doc(t, strings.Join([]string{arrowAB, labelAB}, ","))
	before, _ := d.Marshal()
	if _, err := Draw(d, DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	after, _ := d.Marshal()
	if string(before) != string(after) {
		t.Fatal("Draw changed the document")
	}
}

// Excalidraw's dark theme: white paper becomes #121212, black ink
// #ededed, and a hue comes back lighter (inverted, then rotated back).
func TestThemeFilterIsExcalidrawsDarkTheme(t *testing.T) {
	for in, want := range map[Color]Color{
		{255, 255, 255, 255}: {0x12, 0x12, 0x12, 255},
		{0, 0, 0, 255}:       {0xed, 0xed, 0xed, 255},
		{255, 0, 0, 128}:     {255, 144, 144, 128}, // invert, then the hue back: a lighter red
	} {
		got := ThemeFilter(in)
		if d := math.Abs(float64(got.R)-float64(want.R)) + math.Abs(float64(got.G)-float64(want.G)) + math.Abs(float64(got.B)-float64(want.B)); d > 3 || got.A != want.A {
			t.Errorf("dark(%v) = %v, want %v", in, got, want)
		}
	}
}

func TestParseColorReadsWhatACanvasReads(t *testing.T) {
	for s, want := range map[string]Color{
		"#1e1e1e": {0x1e, 0x1e, 0x1e, 255}, "#abc": {0xaa, 0xbb, 0xcc, 255}, "#ff000080": {255, 0, 0, 0x80},
		"red": {255, 0, 0, 255}, "rgba(0, 0, 255, 0.5)": {0, 0, 255, 128}, "transparent": {0, 0, 0, 0},
	} {
		if got, ok := ParseColor(s); !ok || got != want {
			t.Errorf("%q → %v %v, want %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "not a colour", "#12"} {
		if _, ok := ParseColor(s); ok {
			t.Errorf("%q parsed", s)
		}
	}
}

func TestCubicExtentFindsTheBulge(t *testing.T) {
	lo, hi := cubicExtent(0, 10, 10, 0)
	if lo != 0 || math.Abs(hi-7.5) > 1e-12 {
		t.Fatalf("extent %v..%v, want 0..7.5", lo, hi)
	}
	lo, hi = cubicExtent(0, 1, 2, 3)
	if lo != 0 || hi != 3 {
		t.Fatalf("a straight line: %v..%v", lo, hi)
	}
}

func TestCornerRadiusFollowsTheRoundnessType(t *testing.T) {
	for _, c := range []struct {
		e    element
		x    float64
		want float64
	}{
		{element{roundness: 0}, 100, 0},
		{element{roundness: 2}, 100, 25},
		{element{roundness: 3}, 100, 25}, // under 32 / 0.25: proportional
		{element{roundness: 3}, 200, 32},
		{element{roundness: 3}, 60, 15},
		{element{roundness: 3, roundnessValue: 10, hasRoundnessValue: true}, 100, 10},
	} {
		if got := cornerRadius(c.x, &c.e); got != c.want {
			t.Errorf("roundness %d side %v: %v, want %v", c.e.roundness, c.x, got, c.want)
		}
	}
}

func TestElbowPathRoundsItsCorners(t *testing.T) {
	got := elbowPath([][2]float64{{0, 0}, {100, 0}, {100, 100}}, 16)
	if got != "M 0 0 L 84 0 Q 100 0, 100 16 L 100 100" {
		t.Fatalf("path %q", got)
	}
}
