package fonts_test

import (
	"bytes"
	"reflect"
	"sync"
	"testing"

	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"

	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts/woff2"
)

// shaped is what a browser draws a text with in one font: where HarfBuzz
// puts each glyph, the line's advance, and each glyph's outline (their
// ids may differ).
type shaped struct {
	At       [][2]fixed.Int26_6
	Width    fixed.Int26_6
	Outlines []font.GlyphOutline
}

func shapeWith(t *testing.T, woff []byte, text string) shaped {
	t.Helper()
	raw, err := woff2.Decode(woff)
	if err != nil {
		t.Fatal(err)
	}
	face, err := font.ParseTTF(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var sh shaping.HarfbuzzShaper
	rs := []rune(text)
	out := sh.Shape(shaping.Input{Text: rs, RunEnd: len(rs), Face: face, Size: fixed.I(int(face.Upem())),
		Direction: 0, Language: language.NewLanguage("und")})
	var s shaped
	for _, g := range out.Glyphs {
		s.At = append(s.At, [2]fixed.Int26_6{s.Width + g.XOffset, g.YOffset})
		s.Width += g.Advance
		o, _ := face.GlyphDataOutline(g.GlyphID)
		s.Outlines = append(s.Outlines, o)
	}
	return s
}

// A subset draws its text as the whole file does: the same glyphs (ids,
// advances, kerning, ligatures) with the same outlines, in every family,
// and it is smaller.
func TestSubsetDrawsLikeTheWholeFont(t *testing.T) {
	set := fonts.New(editorFonts(t))
	for _, c := range []struct {
		text   string
		family int
	}{
		{"Kerning AVATAR Type, fi fl", 5}, {"Virgil draws 0123", 1}, {"Cascadia -> => != <= www", 3},
		{"Nunito fi fl", 6}, {"Lilita One", 7}, {"Comic Shanns 0123", 8}, {"Liberation Sans AV", 9}, {"Helvetica 漢字", 2}, {"Virgil 漢字", 1},
		{"漢字かなカナ中文", 5}, {"Привет мир", 5},
	} {
		faces := set.FacesFor(c.text, c.family)
		if len(faces) == 0 {
			t.Fatalf("%q in %d: no face", c.text, c.family)
		}
		for _, fc := range faces {
			f, chars := fc.Face, fc.Chars
			sub, err := f.Subset(chars)
			if err != nil {
				t.Fatalf("%s: %v", f.File, err)
			}
			if len(sub) >= len(f.WOFF2) && len(f.WOFF2) > 4000 {
				t.Errorf("%s: the subset is %d bytes, the file %d", f.File, len(sub), len(f.WOFF2))
			}
			text := string(chars)
			if want, got := shapeWith(t, f.WOFF2, text), shapeWith(t, sub, text); !reflect.DeepEqual(want, got) {
				t.Errorf("%s: %q shapes differently in the subset:\n whole  %v\n subset %v", f.File, text, want.At, got.At)
			}
			t.Logf("%s: %q: %d bytes of %d", f.File, text, len(sub), len(f.WOFF2))
			again, err := f.Subset(chars)
			if err != nil || !bytes.Equal(again, sub) {
				t.Errorf("%s: a second subset of the same characters differs (%v)", f.File, err)
			}
		}
	}
}

// Subsets of one face made at once agree.
func TestSubsetConcurrent(t *testing.T) {
	set := fonts.New(editorFonts(t))
	f := set.FacesFor("Concurrent", 1)[0].Face
	var wg sync.WaitGroup
	out := make([][]byte, 8)
	for i := range out {
		wg.Go(func() {
			b, err := f.Subset([]rune("Concurrent"[:1+i%len("Concurrent")]))
			if err != nil {
				t.Error(err)
			}
			out[i] = b
		})
	}
	wg.Wait()
	for i := range out {
		if len(out[i]) == 0 {
			t.Errorf("subset %d is empty", i)
		}
	}
}
