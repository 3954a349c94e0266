package svg_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dshgo/dsh/internal/e2e/rendercheck"
	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/render/rendertest"
	"github.com/dshgo/dsh/plugins/excalidraw/render/svg"
)

// showSVG puts an SVG alone on a page in headless Chromium, waits for
// every font it declares to load (failing when Chromium refuses one, as
// it does a malformed font) and takes the picture.
func showSVG(t *testing.T, ctx context.Context, doc string) image.Image {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(doc)
	statuses, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.style.cssText = "margin:0;background:#fff";
		document.body.innerHTML = `+string(js)+`;
		void document.body.getBoundingClientRect(); // style the page: its @font-face rules join document.fonts
		Promise.allSettled([...document.fonts].map(f => f.load())).then(() => document.fonts.ready).then(() =>
			new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))).then(() =>
			[...document.fonts].map(f => f.family + ":" + f.status).join(" "))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(statuses, ":error") || (strings.Contains(doc, "@font-face") && !strings.Contains(statuses, ":loaded")) {
		t.Fatalf("Chromium's fonts: %s", statuses)
	}
	// The picture once two screenshots in a row agree: fonts that just
	// loaded may be drawn a frame later.
	var last []byte
	for range 50 {
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(shot, last) {
			img, err := png.Decode(bytes.NewReader(shot))
			if err != nil {
				t.Fatal(err)
			}
			return img
		}
		last = shot
	}
	t.Fatal("the page never settled")
	return nil
}

// differing counts the pixels where a and b differ by more than tol (of
// 255) in a channel.
func differing(a, b image.Image, tol int) int {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	r := a.Bounds()
	d := func(u, v uint32) int { return max(int(u>>8)-int(v>>8), int(v>>8)-int(u>>8)) }
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if max(d(r1, r2), d(g1, g2), d(b1, b2)) > tol {
				n++
			}
		}
	}
	return n
}

// subsetFloor is the least structural similarity of text drawn with the
// subset fonts and with the whole files. They differ by hinting alone:
// FreeType's light hinting measures a font's blue zones on the glyphs it
// holds, so a subset's stems snap a little differently (measured
// 0.97–1.00); a missing glyph, a lost ligature or kerning falls far under.
const subsetFloor = 0.95

// Chromium loads every subset an SVG embeds and draws the text with it
// as with the whole font files (kerning, ligatures, CJK in Xiaolai), and
// not as without them.
func TestSubsetFontsDrawInChromiumAsTheWholeFiles(t *testing.T) {
	set := rendertest.Fonts(t)
	ctx := testenv.Browser(t)
	for _, c := range []struct {
		family int
		text   string
	}{
		{5, "Kerning AVATAR Type, fi fl ffi"}, {5, "Hello world 123"}, {1, "Virgil draws 漢字かな"}, {2, "Helvetica 中文"},
		{3, "Cascadia -> => != <= www"}, {6, "Nunito fi fl"}, {7, "Lilita One"}, {8, "Comic Shanns 0123"}, {9, "Liberation AV Wa"},
		{5, "Привет, Ελληνικά"},
	} {
		el := fmt.Sprintf(`{"type":"text","id":"t","x":0,"y":0,"width":600,"height":50,"seed":3,"text":%q,"originalText":%q,"fontSize":40,"fontFamily":%d,"textAlign":"left","verticalAlign":"top","lineHeight":1.25}`, c.text, c.text, c.family)
		pic := rendertest.Picture(t, false, el)
		var sub, whole, none bytes.Buffer
		if err := svg.Write(&sub, pic, set); err != nil {
			t.Fatal(err)
		}
		if err := svg.WriteWholeFontsForTest(&whole, pic, set); err != nil {
			t.Fatal(err)
		}
		if err := svg.Write(&none, pic, nil); err != nil {
			t.Fatal(err)
		}
		a, b := showSVG(t, ctx, sub.String()), showSVG(t, ctx, whole.String())
		same, bare := rendercheck.Compare(a, b).SSIM, 0.0
		if c.family != 2 && c.family != 9 { // Helvetica and Liberation Sans are the system's too
			bare = rendercheck.Compare(a, showSVG(t, ctx, none.String())).SSIM
		}
		t.Logf("%q in %d: SSIM %.4f with the whole files (%d pixels differ by over 96 of 255), %.4f without fonts; %d vs %d bytes",
			c.text, c.family, same, differing(a, b, 96), bare, sub.Len(), whole.Len())
		if same < subsetFloor {
			t.Errorf("%q in %d: SSIM %.4f between the subset fonts and the whole files, under %.3f", c.text, c.family, same, subsetFloor)
		}
		if bare > 0.9 {
			t.Errorf("%q in %d: SSIM %.4f with no fonts at all: the fonts are not drawn", c.text, c.family, bare)
		}
	}
}
