package build

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// TestTextOutsideTheFontsIsMarked: text whose width used a declared
// fallback (glyphs none of the family's fonts has) carries the mark the
// editor re-measures by; text the fonts cover does not, and MarkMeasure
// removes the mark when the text changes to such text.
func TestTextOutsideTheFontsIsMarked(t *testing.T) {
	els := mustBuild(t, testContext(),
		`{"type":"text","id":"latin","x":0,"y":0,"text":"Hello, world"}`,
		`{"type":"text","id":"cjk","x":0,"y":40,"text":"你好","fontFamily":5}`,
		`{"type":"text","id":"hindi","x":0,"y":80,"text":"नमस्ते"}`,
		`{"type":"rectangle","id":"box","x":0,"y":120,"width":120,"height":60,"label":{"text":"שלום"}}`,
		`{"type":"rectangle","id":"box2","x":0,"y":220,"width":120,"height":60,"label":{"text":"Привет","fontFamily":6}}`,
	).Elements
	// mark is the text's mark; for a container, its label's.
	mark := func(id string) string {
		var text *ojson.Object
		for _, el := range els {
			if s, _ := el.String("containerId"); s == id {
				text = el
			}
		}
		if text == nil {
			text = byID(t, els, id)
		}
		cd, _ := text.Object("customData")
		if cd == nil {
			return ""
		}
		v, _ := cd.String(MeasureMark)
		return v
	}
	for id, want := range map[string]string{
		"latin": "",              // Excalifont has it
		"cjk":   "",              // Excalifont's Xiaolai has it
		"hindi": MeasureFallback, // nobody ships Devanagari
		"box":   MeasureFallback, // Hebrew is in no shipped font
		"box2":  "",              // Cyrillic: Nunito has it
	} {
		if got := mark(id); got != want {
			t.Errorf("%s: mark %q, want %q", id, got, want)
		}
	}

	el := ojson.New().Set("type", "text").Set("text", "नमस्ते").Set("originalText", "नमस्ते").Set("fontFamily", 5).Set("fontSize", 20)
	el.Set("customData", ojson.New().Set("owner", "someone"))
	MarkMeasure(el)
	if cd, _ := el.Object("customData"); cd.Len() != 2 {
		t.Fatalf("customData after marking: %v", cd.Keys())
	}
	el.Set("text", "hello").Set("originalText", "hello")
	MarkMeasure(el)
	if cd, _ := el.Object("customData"); cd == nil || cd.Has(MeasureMark) || !cd.Has("owner") {
		t.Fatalf("customData after the text became Latin: %v", cd)
	}
	el.Delete("customData")
	el.Set("text", "नमस्ते").Set("originalText", "नमस्ते")
	MarkMeasure(el)
	el.Set("text", "hello").Set("originalText", "hello")
	MarkMeasure(el)
	if el.Has("customData") {
		t.Fatal("an empty customData was left behind")
	}
}
