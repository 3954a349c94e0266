package textmetrics

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// testdata/conformance.json is written by gen/generate.mjs: the output of the
// package's own parseTokens and wrapText (element/textWrapping.ts of 0.18.1)
// for a corpus of lines, with syntheticWidth standing in for canvas.

// syntheticWidth must stay identical to the function of the same name in
// gen/generate.mjs. It is additive except for three pairs, so that the
// difference between measuring a whole line and adding a single character's
// width (which Excalidraw's wrapper relies on) shows.
func syntheticWidth(text string) float64 {
	width := 0.0
	prev := rune(-1)
	for _, c := range text {
		switch {
		case c >= 0x1f000:
			width += 20
		case c >= 0x2e80:
			width += 16
		default:
			width += float64(6 + c%5)
		}
		if (prev == 'A' && c == 'V') || (prev == 'V' && c == 'A') || (prev == 'T' && c == 'o') {
			width -= 3
		}
		prev = c
	}
	return width
}

type conformance struct {
	Tokens []struct {
		Line   string   `json:"line"`
		Tokens []string `json:"tokens"`
	} `json:"tokens"`
	Wraps []struct {
		Text     string  `json:"text"`
		MaxWidth float64 `json:"maxWidth"`
		Want     string  `json:"want"`
	} `json:"wraps"`
}

func loadConformance(t *testing.T) conformance {
	t.Helper()
	data, err := os.ReadFile("testdata/conformance.json")
	if err != nil {
		t.Fatal(err)
	}
	var c conformance
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Tokens) < 20 || len(c.Wraps) < 200 {
		t.Fatalf("conformance data too small: %d tokens, %d wraps", len(c.Tokens), len(c.Wraps))
	}
	return c
}

func TestTokenizeMatchesExcalidraw(t *testing.T) {
	for _, v := range loadConformance(t).Tokens {
		got := tokenize(v.Line)
		if len(got) == 0 && len(v.Tokens) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, v.Tokens) {
			t.Errorf("tokenize(%q)\n got %q\nwant %q", v.Line, got, v.Tokens)
		}
	}
}

func TestWrapMatchesExcalidraw(t *testing.T) {
	for _, v := range loadConformance(t).Wraps {
		if got := wrapText(v.Text, v.MaxWidth, syntheticWidth); got != v.Want {
			t.Errorf("wrapText(%q, %v)\n got %q\nwant %q", v.Text, v.MaxWidth, got, v.Want)
		}
	}
}
