package woff2

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/go-text/typesetting/font"
)

// TestDecodeEditorFonts decodes every font of the editor's build and
// checks that go-text parses the result and reads every glyph's outline,
// with finite points inside head's bounding box.
func TestDecodeEditorFonts(t *testing.T) {
	files := editorFonts(t)
	var decoding time.Duration
	start := time.Now()
	glyphs := 0
	for _, name := range sortedKeys(files) {
		t0 := time.Now()
		sfnt, err := Decode(files[name])
		decoding += time.Since(t0)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		n, err := checkOutlines(sfnt)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		glyphs += n
	}
	t.Logf("%d files, %d glyphs: decoded in %v, decoded and checked in %v", len(files), glyphs, decoding, time.Since(start))
}

// checkOutlines parses sfnt with go-text and reads every glyph's outline,
// checking its points are finite and inside head's bounding box, give or
// take a tenth of an em: all four Assistant files have the head of one
// weight, xMax 1108, while their perthousand reaches up to 1191 (fontkit
// reads the same), and a decoder gone wrong lands much further out. It
// returns the number of glyphs.
func checkOutlines(sfnt []byte) (int, error) {
	info, err := readFontInfo(sfnt)
	if err != nil {
		return 0, err
	}
	face, err := parseFace(sfnt)
	if err != nil {
		return 0, err
	}
	slack := float64(face.Upem()) / 10
	xMin, yMin := float64(info.xMin)-slack, float64(info.yMin)-slack
	xMax, yMax := float64(info.xMax)+slack, float64(info.yMax)+slack
	for gid := range info.numGlyphs {
		out, err := outline(face, font.GID(gid))
		if err != nil {
			return 0, err
		}
		for _, seg := range out.Segments {
			for _, p := range seg.ArgsSlice() {
				x, y := float64(p.X), float64(p.Y)
				if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) ||
					x < xMin || x > xMax || y < yMin || y > yMax {
					return 0, fmt.Errorf("glyph %d: point (%g, %g) outside head's bbox [%d %d %d %d]",
						gid, x, y, info.xMin, info.yMin, info.xMax, info.yMax)
				}
			}
		}
	}
	return info.numGlyphs, nil
}
