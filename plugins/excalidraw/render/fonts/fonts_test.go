package fonts_test

import (
	"fmt"
	"io/fs"
	"math"
	"sync"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// editorFonts is the fonts folder of the built editor, or the test ends
// (skip-or-fail, see testenv).
func editorFonts(t testing.TB) fs.FS {
	t.Helper()
	a := editor.Assets()
	if a == nil {
		testenv.Missing(t, "the editor is not built (its fonts are Excalidraw's); run make editor")
	}
	sub, err := fs.Sub(a, "fonts")
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// The layout's advances are the measurement's: one geometry for text.
func TestLayoutWidthIsTheMeasuredWidth(t *testing.T) {
	set := fonts.New(editorFonts(t))
	for _, c := range []struct {
		text   string
		family int
	}{
		{"Hello, world", 5}, {"Kerning AVATAR Type", 5}, {"Nunito fi fl", 6}, {"Lilita One", 7},
		{"Comic Shanns 0123", 8}, {"Liberation Sans", 9}, {"Virgil draws", 1}, {"Cascadia()", 3}, {"Helvetica", 2},
		{"Привет мир", 5}, {"Ελληνικά", 5},
		// No family has these: Excalidraw's CJK font, and the fallback
		// fonts the text is measured with, draw them.
		{"שלום עולם", 5}, {"مرحبا", 6}, {"频道 and 获取", 3},
	} {
		line, err := set.Layout(c.text, c.family, 20)
		if err != nil {
			t.Fatal(err)
		}
		want := textmetrics.MeasureLine(c.text, textmetrics.FontFamily(c.family), 20)
		if math.Abs(line.Width-want) > 0.05*want+0.5 {
			t.Errorf("%q in %d: layout %.2f px, measured %.2f px", c.text, c.family, line.Width, want)
		}
		if len(line.Glyphs) == 0 || len(line.Used) == 0 {
			t.Errorf("%q: no glyphs", c.text)
		}
		if segs := line.Glyphs[0].Outline(20); len(segs) == 0 {
			t.Errorf("%q: first glyph has no outline", c.text)
		}
	}
}

func TestMissingFolderSaysHowToGetIt(t *testing.T) {
	set := fonts.New(nil)
	if _, err := set.Layout("x", 5, 20); err == nil {
		t.Fatal("no error without fonts")
	}
}

// Layouts on many goroutines at once share the fonts safely (run with
// -race): the editor's list asks for many thumbnails at once.
func TestLayoutIsSafeForConcurrentUse(t *testing.T) {
	set := fonts.New(editorFonts(t))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 20 {
				line, err := set.Layout(fmt.Sprintf("Tile %d-%d 频道 Ωμέγα", i, j), []int{5, 1, 6, 9}[j%4], 20)
				if err != nil {
					t.Error(err)
					return
				}
				for _, g := range line.Glyphs {
					g.Outline(20)
				}
				set.FacesFor("abc 频道", 5)
			}
		})
	}
	wg.Wait()
}
