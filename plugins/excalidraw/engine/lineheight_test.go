package engine

import (
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// withLineHeight saves doc with the lineHeight of the given texts set as
// another editor (or an older Excalidraw) left it, their heights to
// match, and returns the stored scene.
func withLineHeight(t *testing.T, s *stored, doc *scene.Document, lh float64, ids ...string) *scene.Document {
	t.Helper()
	for _, id := range ids {
		el := element(t, doc, id)
		lines := float64(len(splitLines(scene.StringOf(el, "text"))))
		el.Set("lineHeight", lh)
		el.Set("height", scene.NumberOf(el, "fontSize")*lh*lines)
	}
	return saveEdited(t, s, doc)
}

func splitLines(s string) []string {
	out := []string{""}
	for _, r := range s {
		if r == '\n' {
			out = append(out, "")
			continue
		}
		out[len(out)-1] += string(r)
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// An existing text keeps its own lineHeight through every re-layout: a
// replaced text, a label whose text or font size changed, a resized
// container, a fixed-width text re-wrapped. Its height is fontSize ×
// lineHeight × lines, as Excalidraw measures it; the family's default
// (1.25 for Excalifont) would make it shorter.
func TestRelayoutKeepsTheElementsLineHeight(t *testing.T) {
	const lh = 1.77
	if near(textmetrics.LineHeight(textmetrics.FontFamily(5)), lh) {
		t.Fatal("the test needs a line height that is not the family's")
	}
	s := newStored(t)
	doc := s.create(
		`{"type":"rectangle","id":"r","x":0,"y":0,"width":200,"height":100,"label":{"text":"Hello"}}`,
		`{"type":"text","id":"t","x":0,"y":300,"text":"one line","fontFamily":5}`,
		`{"type":"text","id":"w","x":0,"y":500,"width":90,"text":"a fixed width text","fontFamily":5}`)
	lid := labelID(t, doc, "r")
	withLineHeight(t, s, doc, lh, lid, "t", "w")

	check := func(what, id string) {
		t.Helper()
		el := element(t, s.doc(), id)
		lines := float64(len(splitLines(scene.StringOf(el, "text"))))
		if got, want := scene.NumberOf(el, "height"), scene.NumberOf(el, "fontSize")*lh*lines; !near(got, want) || scene.NumberOf(el, "lineHeight") != lh {
			t.Errorf("%s: %s is %g high with lineHeight %v, want %g (%g lines at %g)", what, id, got, scene.NumberOf(el, "lineHeight"), want, lines, lh)
		}
	}
	replaceText(t, s, []string{"t"}, Replacement{Find: "one line", Replace: "two\nlines"})
	check("replace_text", "t")
	if _, err := s.apply(`{"op":"update","id":"r","patch":{"text":"Hello\nworld\nagain"}}`); err != nil {
		t.Fatal(err)
	}
	check("label text", lid)
	if _, err := s.apply(`{"op":"update","id":"r","patch":{"fontSize":28}}`); err != nil {
		t.Fatal(err)
	}
	check("label font size", lid)
	if r, l := element(t, s.doc(), "r"), element(t, s.doc(), lid); scene.NumberOf(r, "height") < scene.NumberOf(l, "height") {
		t.Errorf("the container (%g high) does not hold its label (%g)", scene.NumberOf(r, "height"), scene.NumberOf(l, "height"))
	}
	if _, err := s.apply(`{"op":"update","id":"r","patch":{"width":120}}`); err != nil {
		t.Fatal(err)
	}
	check("resized container", lid)
	if _, err := s.apply(`{"op":"update","id":"w","patch":{"text":"a fixed width text that wraps to more lines"}}`); err != nil {
		t.Fatal(err)
	}
	check("fixed width", "w")
	// A new font family takes the family's line height, as in Excalidraw.
	if _, err := s.apply(`{"op":"update","id":"t","patch":{"fontFamily":6}}`); err != nil {
		t.Fatal(err)
	}
	if el := element(t, s.doc(), "t"); scene.NumberOf(el, "lineHeight") != textmetrics.LineHeight(6) {
		t.Errorf("a new family kept lineHeight %v", scene.NumberOf(el, "lineHeight"))
	}
	// The builder's geometry agrees (what lint and measure_text use).
	el := element(t, s.doc(), lid)
	if lay := build.LayoutLabel(element(t, s.doc(), "r"), el); !near(lay.Height, scene.NumberOf(el, "height")) {
		t.Errorf("LayoutLabel height %g, stored %g", lay.Height, scene.NumberOf(el, "height"))
	}
}
