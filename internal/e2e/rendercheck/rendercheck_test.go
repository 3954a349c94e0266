package rendercheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testcorpus"
)

// Set DSH_RENDERCHECK_OUT to a folder to keep each render's PNG, SVG and
// side-by-side images there for a human to look at.
func keep(t *testing.T, name string, data []byte) {
	dir := os.Getenv("DSH_RENDERCHECK_OUT")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("kept %s", path)
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// inked is the share of pixels that are not the top-left pixel's color
// (the background).
func inked(img image.Image) float64 {
	m, ok := img.(*image.NRGBA)
	if !ok {
		m = image.NewNRGBA(img.Bounds())
		draw.Draw(m, m.Bounds(), img, img.Bounds().Min, draw.Src)
	}
	bg := m.Pix[:4]
	var n int
	for i := 0; i < len(m.Pix); i += 4 {
		if !bytes.Equal(m.Pix[i:i+4], bg) {
			n++
		}
	}
	return float64(n) / float64(len(m.Pix)/4)
}

var svgSize = regexp.MustCompile(`^<svg [^>]*?width="([^"]+)" height="([^"]+)"`)

// checkSVGSize checks the SVG's width and height attributes are the
// export size times the scale.
func checkSVGSize(t *testing.T, out Output, scale float64) {
	t.Helper()
	m := svgSize.FindStringSubmatch(out.SVG)
	if m == nil {
		t.Fatalf("%s: no width and height in %.200s", out.Name, out.SVG)
	}
	w, _ := strconv.ParseFloat(m[1], 64)
	h, _ := strconv.ParseFloat(m[2], 64)
	if math.Abs(w-out.ExportWidth*scale) > 1e-6 || math.Abs(h-out.ExportHeight*scale) > 1e-6 {
		t.Errorf("%s: SVG %v×%v, export size %v×%v × %v", out.Name, w, h, out.ExportWidth, out.ExportHeight, scale)
	}
}

// TestRenderCorpus renders drawings of the generated corpus (Excalifont,
// Virgil, Cascadia, Nunito, Comic Shanns) and checks what Excalidraw
// gives.
func TestRenderCorpus(t *testing.T) {
	h := Start(t)
	scenes := []struct {
		name  string
		scale float64
	}{
		{"flow-excalifont.excalidraw", 1},      // Excalifont
		{"flow-virgil-cascadia.excalidraw", 1}, // Virgil, Cascadia
		{"flow-nunito-comic.excalidraw", 2},    // Excalifont, Nunito, Comic Shanns
	}
	var names []string
	imgs := map[string]image.Image{}
	for _, sc := range scenes {
		name, scale := sc.name, sc.scale
		names = append(names, name)
		start := time.Now()
		out, err := h.Render(name, testcorpus.Read(t, name), Options{Scale: scale, Background: true, Padding: DefaultPadding, Runs: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d×%d px (%.1f×%.1f), exportToSvg %v, exportToBlob %v, %d KB PNG, %d KB SVG, fonts %v, %v in all",
			name, out.Width, out.Height, out.ExportWidth, out.ExportHeight, out.SVGTime, out.PNGTime, len(out.PNG)>>10, len(out.SVG)>>10, out.Fonts, time.Since(start).Round(time.Millisecond))
		if len(out.Console) > 0 {
			t.Errorf("%s: the page said: %q", name, out.Console)
		}
		img := decode(t, out.PNG)
		imgs[name] = img
		if r := img.Bounds(); r.Dx() != out.Width || r.Dy() != out.Height ||
			out.Width != int(math.Trunc(out.ExportWidth*scale)) || out.Height != int(math.Trunc(out.ExportHeight*scale)) {
			t.Errorf("%s: PNG %v, want trunc(%v×%v)×trunc(%v×%[4]v)", name, r, out.ExportWidth, scale, out.ExportHeight)
		}
		checkSVGSize(t, out, scale)
		if !strings.Contains(out.SVG, "@font-face") {
			t.Errorf("%s: the SVG inlines no font", name)
		}
		if f := inked(img); f < 0.005 {
			t.Errorf("%s: only %.2f%% of the PNG is drawn", name, 100*f)
		}
		if out.SVGTime <= 0 || out.PNGTime <= 0 {
			t.Errorf("%s: times %v, %v", name, out.SVGTime, out.PNGTime)
		}
		if len(out.Fonts) == 0 {
			t.Errorf("%s: no fonts", name)
		}
		for f, loaded := range out.Fonts {
			if !loaded {
				t.Errorf("%s: font %s was not loaded", name, f)
			}
		}
		if s := Compare(img, img); s.SSIM != 1 || s.MeanAbsDiff != 0 {
			t.Errorf("%s against itself: %+v", name, s)
		}
		// Calibration on a real drawing: a shift by one pixel.
		s := Compare(img, shiftXY(img, 1, 0))
		t.Logf("%s shifted right by 1 px: %+v", name, s)
		if s.SSIM < 0.8 || s.SSIM > 0.98 {
			t.Errorf("%s shifted right by 1 px: %+v", name, s)
		}
		keep(t, name+".png", out.PNG)
		keep(t, name+".svg", []byte(out.SVG))
	}
	for i, a := range names {
		b := names[(i+1)%len(names)]
		s := Compare(imgs[a], imgs[b])
		t.Logf("%s against %s: %+v", a, b, s)
		if s.SSIM > 0.5 || s.MeanAbsDiff < 0.02 {
			t.Errorf("%s against %s: %+v, want a low SSIM and a larger difference", a, b, s)
		}
		if os.Getenv("DSH_RENDERCHECK_OUT") != "" {
			var buf bytes.Buffer
			if err := png.Encode(&buf, SideBySide(imgs[a], imgs[b], a+" | "+b)); err != nil {
				t.Fatal(err)
			}
			keep(t, fmt.Sprintf("side-by-side-%d.png", i), buf.Bytes())
		}
	}
}

// rectScene is a scene of one rectangle, w×h at (10, 20): Excalidraw's
// bounds of a rectangle are its box, so the export's size is known.
func rectScene(w, h float64, extra string) []byte {
	return fmt.Appendf(nil, `{"type":"excalidraw","version":2,"source":"test","elements":[
{"id":"r1","type":"rectangle","x":10,"y":20,"width":%v,"height":%v,"angle":0,"strokeColor":"#1e1e1e",
"backgroundColor":"#a5d8ff","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,
"groupIds":[],"frameId":null,"roundness":null,"seed":7,"version":1,"versionNonce":1,"isDeleted":false,
"boundElements":null,"updated":1,"link":null,"locked":false,"index":"a0"}%s],
"appState":{"viewBackgroundColor":"#ffffff","gridSize":20},"files":{}}`, w, h, extra)
}

// TestRenderSizeAndOptions checks the export's size (bounds plus padding,
// times the scale, truncated), the background, dark mode, and that
// deleted elements are not drawn.
func TestRenderSizeAndOptions(t *testing.T) {
	h := Start(t)
	deleted := `,{"id":"gone","type":"rectangle","x":5000,"y":5000,"width":10,"height":10,"angle":0,"strokeColor":"#1e1e1e",
"backgroundColor":"transparent","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,
"groupIds":[],"frameId":null,"roundness":null,"seed":8,"version":2,"versionNonce":2,"isDeleted":true,
"boundElements":null,"updated":1,"link":null,"locked":false,"index":"a1"}`
	for _, tc := range []struct {
		name   string
		w, h   float64
		o      Options
		pw, ph int
		corner func(r, g, b, a uint32) bool // the top-left pixel (padding: background only)
	}{
		{"scale 2, padding 10", 100, 50, Options{Scale: 2, Background: true, Padding: 10}, 240, 140,
			func(r, g, b, a uint32) bool { return r == 0xffff && g == 0xffff && b == 0xffff && a == 0xffff }},
		{"scale 1.5 truncates", 101, 51, Options{Scale: 1.5, Background: true, Padding: 10}, 181, 106, nil}, // 121×1.5 = 181.5, 71×1.5 = 106.5
		{"no padding", 100, 50, Options{Scale: 1, Background: true}, 100, 50, nil},
		{"no background", 100, 50, Options{Scale: 1, Padding: 10}, 120, 70,
			func(r, g, b, a uint32) bool { return a == 0 }},
		{"dark", 100, 50, Options{Scale: 1, Background: true, Dark: true, Padding: 10}, 120, 70,
			func(r, g, b, a uint32) bool { return a == 0xffff && r < 0x3000 && g < 0x3000 && b < 0x3000 }},
	} {
		out, err := h.Render(tc.name, rectScene(tc.w, tc.h, deleted), tc.o)
		if err != nil {
			t.Fatal(err)
		}
		img := decode(t, out.PNG)
		if r := img.Bounds(); r.Dx() != tc.pw || r.Dy() != tc.ph || out.Width != tc.pw || out.Height != tc.ph {
			t.Errorf("%s: PNG %v (Output %d×%d), want %d×%d", tc.name, r, out.Width, out.Height, tc.pw, tc.ph)
		}
		if out.ExportWidth != tc.w+2*float64(tc.o.Padding) || out.ExportHeight != tc.h+2*float64(tc.o.Padding) {
			t.Errorf("%s: export size %v×%v", tc.name, out.ExportWidth, out.ExportHeight)
		}
		checkSVGSize(t, out, tc.o.Scale)
		if tc.corner != nil {
			if c := img.At(0, 0); !tc.corner(c.RGBA()) {
				t.Errorf("%s: corner pixel %v", tc.name, c)
			}
		}
		if f := inked(img); f < 0.3 { // the filled rectangle
			t.Errorf("%s: %.2f%% drawn", tc.name, 100*f)
		}
		if len(out.Fonts) != 0 {
			t.Errorf("%s: fonts %v for a scene without text", tc.name, out.Fonts)
		}
	}
}

// extent is the size of a scene's live elements' boxes (a line's or an
// arrow's points), plus padding on each side, truncated: the export size
// of a scene of straight lines and unrotated shapes.
func extent(t *testing.T, data []byte, padding float64) (int, int) {
	t.Helper()
	var doc struct {
		Elements []struct {
			Type                string
			X, Y, Width, Height float64
			IsDeleted           bool
			Points              [][2]float64
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	grow := func(x, y float64) {
		minX, minY, maxX, maxY = math.Min(minX, x), math.Min(minY, y), math.Max(maxX, x), math.Max(maxY, y)
	}
	for _, el := range doc.Elements {
		switch {
		case el.IsDeleted:
		case el.Type == "arrow" || el.Type == "line":
			for _, p := range el.Points {
				grow(el.X+p[0], el.Y+p[1])
			}
		default:
			grow(el.X, el.Y)
			grow(el.X+el.Width, el.Y+el.Height)
		}
	}
	return int(maxX - minX + 2*padding), int(maxY - minY + 2*padding)
}

// TestRenderTooBig: the generated 2,000-element flow is taller than
// Chromium's canvas holds at scale 1; Render says so, with the size, and
// still gives the SVG. A lower MaxPixels caps smaller scenes.
func TestRenderTooBig(t *testing.T) {
	h := Start(t)
	const name = "large-2000.excalidraw"
	data := testcorpus.Read(t, name)
	w, ht := extent(t, data, DefaultPadding)
	if ht <= MaxSide {
		t.Fatalf("%s is %d×%d: no longer over MaxSide", name, w, ht)
	}
	start := time.Now()
	out, err := h.Render(name, data, Options{Scale: 1, Background: true, Padding: DefaultPadding})
	t.Logf("%s: %v (%v)", name, err, time.Since(start).Round(time.Millisecond))
	if !errors.Is(err, ErrCanvasTooBig) || !strings.Contains(err.Error(), name) {
		t.Fatalf("err = %v, want ErrCanvasTooBig naming the scene", err)
	}
	if out.PNG != nil || out.Width != w || out.Height != ht || !strings.HasPrefix(out.SVG, "<svg") || out.SVGTime <= 0 {
		t.Errorf("output: %d×%d (want %d×%d), %d bytes of PNG, %d of SVG, SVG time %v", out.Width, out.Height, w, ht, len(out.PNG), len(out.SVG), out.SVGTime)
	}

	out, err = h.Render("capped", rectScene(100, 50, ""), Options{Scale: 1, Background: true, MaxPixels: 4999})
	if !errors.Is(err, ErrCanvasTooBig) || out.Width != 100 || out.Height != 50 {
		t.Errorf("MaxPixels 4999, 100×50: %v, %d×%d", err, out.Width, out.Height)
	}
	if _, err := h.Render("wide", rectScene(MaxSide+1, 10, ""), Options{Scale: 1}); !errors.Is(err, ErrCanvasTooBig) {
		t.Errorf("a side over MaxSide: %v", err)
	}
}

// TestRenderErrors: a scene that cannot render is an error naming it, a
// render that takes too long is cut off, and the harness renders the
// next scene after either.
func TestRenderErrors(t *testing.T) {
	h := Start(t)
	if _, err := h.Render("not json", []byte(`{"elements": [`), Options{}); err == nil || !strings.Contains(err.Error(), "not json") {
		t.Errorf("invalid JSON: %v", err)
	}
	empty := []byte(`{"type":"excalidraw","elements":[],"appState":{},"files":{}}`)
	if _, err := h.Render("empty", empty, Options{}); err == nil || !strings.Contains(err.Error(), "empty") || !strings.Contains(err.Error(), "0x0") {
		t.Errorf("an empty scene without padding: %v", err)
	}
	if out, err := h.Render("empty, padded", empty, Options{Padding: 10, Background: true}); err != nil || out.Width != 20 || out.Height != 20 {
		t.Errorf("an empty scene with padding 10: %v, %d×%d", err, out.Width, out.Height)
	}
	start := time.Now()
	_, err := h.Render("slow", testcorpus.Read(t, "flow-excalifont.excalidraw"), Options{Runs: 50, Timeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "slow") || !strings.Contains(err.Error(), "no result within") {
		t.Errorf("timeout: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the timeout took %v", d)
	}
	out, err := h.Render("after", rectScene(100, 50, ""), Options{Scale: 1, Background: true})
	if err != nil || out.Width != 100 {
		t.Errorf("after the errors: %v, %d", err, out.Width)
	}
}
