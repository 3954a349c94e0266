package svg_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
	"github.com/dshgo/dsh/plugins/excalidraw/render/rendertest"
	"github.com/dshgo/dsh/plugins/excalidraw/render/svg"
)

func write(t *testing.T, dark bool, fs *fonts.Set, elements ...string) string {
	t.Helper()
	pic := rendertest.Picture(t, dark, elements...)
	var b bytes.Buffer
	if err := svg.Write(&b, pic, fs); err != nil {
		t.Fatal(err)
	}
	// Well-formed XML, whatever the text held.
	dec := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not XML: %v\n%s", err, b.String())
		}
	}
	return b.String()
}

const (
	frame  = `{"type":"frame","id":"f","x":0,"y":0,"width":300,"height":200,"seed":1,"name":"A & <B>"}`
	inside = `{"type":"rectangle","id":"r","x":20,"y":20,"width":100,"height":60,"seed":2,"frameId":"f"}`
	label  = `{"type":"text","id":"t","x":20,"y":100,"width":120,"height":25,"seed":3,"text":"x < y & \"z\"","originalText":"x < y","fontSize":20,"fontFamily":5,"textAlign":"left","verticalAlign":"top","lineHeight":1.25}`
)

func TestSVGHasFramesClipsAndEscapedText(t *testing.T) {
	s := write(t, false, nil, frame, inside, label)
	for _, want := range []string{`<clipPath id="clip-f">`, `clip-path="url(#clip-f)"`, `A &amp; &lt;B&gt;`, `x &lt; y &amp; "z"`,
		`font-family="Excalifont, Xiaolai, Segoe UI Emoji"`, `<rect x="0" y="0" width="320"`} {
		if !strings.Contains(s, want) {
			t.Errorf("no %s in\n%s", want, s)
		}
	}
	if strings.Contains(s, "filter=") {
		t.Error("a light picture has a filter")
	}
}

func TestSVGDarkHasTheThemeFilter(t *testing.T) {
	if s := write(t, true, nil, inside); !strings.Contains(s, `filter="invert(93%) hue-rotate(180deg)"`) {
		t.Fatalf("no theme filter:\n%s", s)
	}
}

func TestSVGEmbedsTheFontsItsTextUses(t *testing.T) {
	set := rendertest.Fonts(t)
	s := write(t, false, set, label)
	if n := strings.Count(s, "@font-face"); n != 1 || !strings.Contains(s, `font-family: "Excalifont"`) || !strings.Contains(s, "data:font/woff2;base64,") {
		t.Fatalf("%d font faces:\n%.400s", n, s)
	}
	// A picture without text embeds none.
	if s := write(t, false, set, inside); strings.Contains(s, "@font-face") {
		t.Fatal("a picture without text embeds a font")
	}
}

func TestNumbersHaveTwoDecimalsAtMost(t *testing.T) {
	for f, want := range map[float64]string{0: "0", -0.001: "0", 12: "12", -0.5: "-0.5", 3.256: "3.26", 1e20: "100000000000000000000", 7.1: "7.1", -12.345: "-12.35"} {
		if got := svg.NumberForTest(f); got != want {
			t.Errorf("%v → %q, want %q", f, got, want)
		}
	}
}

// CJK in a family without it (Virgil, Helvetica, Cascadia) is drawn in
// Xiaolai by both outputs: the PNG's layout takes its glyphs from
// Xiaolai's files, and the SVG names Xiaolai after the family and embeds
// those files (cut to the characters), so no viewer falls back to a
// system font.
func TestCJKInANonCJKFamilyIsXiaolaiInPNGAndSVG(t *testing.T) {
	set := rendertest.Fonts(t)
	const cjk = "漢字かな"
	for _, c := range []struct {
		family int
		css    string
	}{{1, "Virgil, Xiaolai, Segoe UI Emoji"}, {2, "Helvetica, Xiaolai, Segoe UI Emoji"}, {3, "Cascadia, Xiaolai, Segoe UI Emoji"}} {
		line, err := set.Layout("ab "+cjk, c.family, 20)
		if err != nil {
			t.Fatal(err)
		}
		png := map[string]bool{}
		for _, g := range line.Glyphs[3:] {
			png[g.Face.File] = true
			if g.Face.Family != "Xiaolai" {
				t.Errorf("family %d: the PNG draws CJK with %s", c.family, g.Face.File)
			}
		}
		s := write(t, false, set, fmt.Sprintf(`{"type":"text","id":"t","x":0,"y":0,"width":120,"height":25,"seed":3,"text":"ab %s","originalText":"ab %s","fontSize":20,"fontFamily":%d,"textAlign":"left","verticalAlign":"top","lineHeight":1.25}`, cjk, cjk, c.family))
		if !strings.Contains(s, `font-family="`+c.css+`"`) {
			t.Errorf("family %d: the SVG's text is not in %q:\n%.600s", c.family, c.css, s)
		}
		svgFaces := map[string]bool{}
		for _, fc := range set.FacesFor("ab "+cjk, c.family) {
			if fc.Face.Family == "Xiaolai" {
				svgFaces[fc.Face.File] = true
			}
		}
		if !maps.Equal(png, svgFaces) {
			t.Errorf("family %d: the PNG draws CJK with %v, the SVG embeds %v", c.family, slices.Sorted(maps.Keys(png)), slices.Sorted(maps.Keys(svgFaces)))
		}
		if n := strings.Count(s, `font-family: "Xiaolai"`); n != len(svgFaces) {
			t.Errorf("family %d: %d Xiaolai faces embedded, want %d", c.family, n, len(svgFaces))
		}
	}
}
