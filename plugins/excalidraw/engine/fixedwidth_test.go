package engine

import (
	"math"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

const longText = "The quick brown fox jumps over the lazy dog and keeps on running"

// checkWrappedTo asserts that a text element holds original wrapped to
// width w, as Excalidraw keeps a fixed-width text: width w, text the
// wrapped lines (each fitting), originalText the unwrapped text, height
// lines × lineHeight × fontSize.
func checkWrappedTo(t *testing.T, el *ojson.Object, original string, w float64) {
	t.Helper()
	fam, fs := textmetrics.FontFamily(scene.NumberOf(el, "fontFamily")), scene.NumberOf(el, "fontSize")
	text := scene.StringOf(el, "text")
	lines := strings.Split(text, "\n")
	if scene.NumberOf(el, "width") != w {
		t.Errorf("width %v, want %v", scene.NumberOf(el, "width"), w)
	}
	if scene.StringOf(el, "originalText") != original {
		t.Errorf("originalText %q, want %q", scene.StringOf(el, "originalText"), original)
	}
	if len(lines) < 2 {
		t.Errorf("text %q is not wrapped", text)
	}
	for _, line := range lines {
		if lw := textmetrics.MeasureLine(line, fam, fs); lw > w {
			t.Errorf("line %q is %v px wide, over %v", line, lw, w)
		}
	}
	if strings.Join(strings.Fields(text), " ") != strings.Join(strings.Fields(original), " ") {
		t.Errorf("wrapping lost words: %q from %q", text, original)
	}
	lh := textmetrics.LineHeight(fam)
	if h := scene.NumberOf(el, "height"); math.Abs(h-float64(len(lines))*lh*fs) > 1e-9 {
		t.Errorf("height %v, want %d lines × %v × %v", h, len(lines), lh, fs)
	}
	if scene.NumberOf(el, "lineHeight") != lh {
		t.Errorf("lineHeight %v, want %v", scene.NumberOf(el, "lineHeight"), lh)
	}
}

// A fixed-width text (autoResize false: a width a person chose) keeps its
// width when its text or typography changes; the text is re-wrapped to
// it and the height follows the lines, as the editor does. It stays put
// (the width does not change, so no alignment anchor moves).
func TestFixedWidthTextRewrapsToItsWidth(t *testing.T) {
	for _, c := range []struct {
		name, patch, original string
	}{
		{"text", `{"text":"` + longText + `"}`, longText},
		{"fontSize", `{"fontSize":36}`, "Several words that fit at twenty"},
		{"fontFamily", `{"fontFamily":6}`, "Several words that fit at twenty"},
		{"textAlign", `{"textAlign":"center","text":"` + longText + `"}`, longText},
		{"verticalAlign", `{"verticalAlign":"middle","text":"` + longText + `"}`, longText},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStored(t)
			s.create(
				`{"type":"text","id":"t","x":50,"y":60,"width":200,"text":"Several words that fit at twenty"}`)
			before := element(t, s.doc(), "t")
			if a, _ := before.Bool("autoResize"); a {
				t.Fatal("the builder made an auto-resizing text")
			}
			if _, err := s.apply(
				`{"op":"update","id":"t","patch":` + c.patch + `}`); err != nil {
				t.Fatal(err)
			}
			after := element(t, s.doc(), "t")
			checkWrappedTo(t, after, c.original, 200)
			if scene.NumberOf(after, "x") != 50 || scene.NumberOf(after, "y") != 60 {
				t.Errorf("moved to %v, %v", scene.NumberOf(after, "x"), scene.NumberOf(after, "y"))
			}
			if a, _ := after.Bool("autoResize"); a {
				t.Error("autoResize became true")
			}
		})
	}
}

// The re-wrapped text is what the builder makes for a new text of that
// width, text and font.
func TestFixedWidthUpdateMatchesBuilder(t *testing.T) {
	s := newStored(t)
	s.create(
		`{"type":"text","id":"t","x":0,"y":0,"width":180,"text":"short"}`,
		`{"type":"text","id":"n","x":0,"y":300,"width":180,"fontSize":28,"fontFamily":"nunito","text":"`+longText+`"}`)
	if _, err := s.apply(
		`{"op":"update","id":"t","patch":{"text":"` + longText + `","fontSize":28,"fontFamily":6}}`); err != nil {
		t.Fatal(err)
	}
	doc := s.doc()
	got, want := element(t, doc, "t"), element(t, doc, "n")
	for _, k := range []string{"text", "originalText", "width", "height", "lineHeight", "autoResize"} {
		g, _ := got.Get(k)
		w, _ := want.Get(k)
		if !ojson.Equal(g, w, true) {
			t.Errorf("%s = %v, the builder writes %v", k, g, w)
		}
	}
}

// An auto-resizing text still grows to its text on one line per line.
func TestAutoResizeTextGrowsToItsText(t *testing.T) {
	s := newStored(t)
	s.create(`{"type":"text","id":"t","x":0,"y":0,"text":"short"}`)
	if _, err := s.apply(
		`{"op":"update","id":"t","patch":{"text":"` + longText + `"}}`); err != nil {
		t.Fatal(err)
	}
	el := element(t, s.doc(), "t")
	size := textmetrics.Measure(longText, textmetrics.DefaultFamily, 20)
	if scene.StringOf(el, "text") != longText || scene.NumberOf(el, "width") != size.Width || scene.NumberOf(el, "height") != size.Height {
		t.Fatalf("auto-resizing text %v, want one line %v", el, size)
	}
}

// A label re-wrapped by an update is the label the builder makes for the
// same container and text: for a shape, wrapped to its inner width and
// centred; for an arrow of three points, wrapped to its label width and
// centred on its middle point.
func TestUpdatedLabelMatchesBuilder(t *testing.T) {
	s := newStored(t)
	const arrow = `"type":"arrow","x":0,"y":300,"points":[[0,0],[120,80],[400,80]]`
	s.create(
		`{"type":"rectangle","id":"r","x":0,"y":0,"width":160,"height":100,"label":{"text":"short"}}`,
		`{"type":"ellipse","id":"e","x":300,"y":0,"width":160,"height":120,"label":{"text":"short"}}`,
		`{`+arrow+`,"id":"a","label":{"text":"short"}}`,
		`{"type":"rectangle","id":"r2","x":0,"y":0,"width":160,"height":100,"label":{"text":"`+longText+`"}}`,
		`{"type":"ellipse","id":"e2","x":300,"y":0,"width":160,"height":120,"label":{"text":"`+longText+`"}}`,
		`{`+arrow+`,"id":"a2","label":{"text":"`+longText+`"}}`)
	doc := s.doc()
	if _, err := s.apply(
		`{"op":"update","id":"r","patch":{"text":"`+longText+`"}}`,
		`{"op":"update","id":"`+labelID(t, doc, "e")+`","patch":{"text":"`+longText+`"}}`,
		`{"op":"update","id":"a","patch":{"text":"`+longText+`"}}`); err != nil {
		t.Fatal(err)
	}
	doc = s.doc()
	for _, pair := range [][2]string{{"r", "r2"}, {"e", "e2"}, {"a", "a2"}} {
		got, want := element(t, doc, labelID(t, doc, pair[0])), element(t, doc, labelID(t, doc, pair[1]))
		for _, k := range []string{"text", "originalText", "x", "y", "width", "height", "angle"} {
			g, _ := got.Get(k)
			w, _ := want.Get(k)
			if !ojson.Equal(g, w, true) {
				t.Errorf("%s label %s = %v, the builder writes %v", pair[0], k, g, w)
			}
		}
		gc, wc := element(t, doc, pair[0]), element(t, doc, pair[1])
		if scene.NumberOf(gc, "width") != scene.NumberOf(wc, "width") || scene.NumberOf(gc, "height") != scene.NumberOf(wc, "height") {
			t.Errorf("%s is %v×%v, the builder makes %v×%v", pair[0], scene.NumberOf(gc, "width"), scene.NumberOf(gc, "height"), scene.NumberOf(wc, "width"), scene.NumberOf(wc, "height"))
		}
	}
}
