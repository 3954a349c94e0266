package raster_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/raster"
	"github.com/dshgo/dsh/plugins/excalidraw/render/rendertest"
)

const box = `{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":60,"seed":1,"strokeColor":"#1e1e1e","backgroundColor":"#ffc9c9","fillStyle":"solid","roughness":0,"strokeWidth":2}`

// ink counts pixels far from the background in a box of the image.
func ink(img image.Image, r image.Rectangle, bg color.Color) int {
	br, bgc, bb, _ := bg.RGBA()
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if d := absDiff(cr, br) + absDiff(cg, bgc) + absDiff(cb, bb); d > 3*0x2000 {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

func TestPaintFillsAndStrokesOnThePaper(t *testing.T) {
	img, err := raster.Paint(rendertest.Picture(t, false, box), nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 120 || b.Dy() != 80 {
		t.Fatalf("size %v", b)
	}
	if c := img.RGBAAt(2, 2); c != (color.RGBA{255, 255, 255, 255}) {
		t.Fatalf("paper %v, want white", c)
	}
	if c := img.RGBAAt(60, 40); c != (color.RGBA{0xff, 0xc9, 0xc9, 0xff}) {
		t.Fatalf("fill %v, want #ffc9c9", c)
	}
	// The outline at x = 10 (local 0): dark ink on the left edge.
	if c := img.RGBAAt(10, 40); c.R > 0x60 {
		t.Fatalf("stroke %v, want dark", c)
	}
}

func TestPaintDarkIsExcalidrawsDarkTheme(t *testing.T) {
	img, err := raster.Paint(rendertest.Picture(t, true, box), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := img.RGBAAt(2, 2); c != (color.RGBA{0x12, 0x12, 0x12, 255}) {
		t.Fatalf("dark paper %v, want #121212", c)
	}
	if c := img.RGBAAt(10, 40); c.R < 0xa0 {
		t.Fatalf("dark stroke %v, want light", c)
	}
}

func TestPaintDrawsGlyphs(t *testing.T) {
	set := rendertest.Fonts(t)
	text := `{"type":"text","id":"t","x":0,"y":0,"width":120,"height":25,"seed":3,"text":"Hello","originalText":"Hello","fontSize":20,"fontFamily":5,"textAlign":"left","verticalAlign":"top","lineHeight":1.25}`
	img, err := raster.Paint(rendertest.Picture(t, false, text), set)
	if err != nil {
		t.Fatal(err)
	}
	if n := ink(img, image.Rect(10, 10, 70, 35), color.White); n < 60 {
		t.Fatalf("%d inked pixels where Hello is", n)
	}
	if n := ink(img, image.Rect(80, 10, 130, 35), color.White); n != 0 {
		t.Fatalf("%d inked pixels right of the word", n)
	}
}

func TestPNGIsAPNG(t *testing.T) {
	var b bytes.Buffer
	if err := raster.PNG(&b, rendertest.Picture(t, false, box), nil); err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(&b)
	if err != nil || cfg.Width != 120 || cfg.Height != 80 {
		t.Fatalf("%+v %v", cfg, err)
	}
}

// The PNG writer's output is what image/png decodes back, pixel for
// pixel, for opaque pictures (written as RGB) and translucent ones (RGBA,
// with rows that are all opaque among them), of any width and height (one
// band or many), with rows that repeat the row above among them.
func TestEncodedPNGDecodesToThePicture(t *testing.T) {
	for _, c := range []struct {
		w, h   int
		opaque bool
	}{{97, 1, false}, {97, 63, false}, {98, 64, false}, {97, 300, false}, {97, 1031, false},
		{97, 1, true}, {98, 300, true}, {97, 1031, true}, {3000, 200, true}} {
		w, h := c.w, c.h
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				a := uint8((x*7 + y*3) % 256)
				if c.opaque || y%3 == 1 {
					a = 255
				}
				img.SetRGBA(x, y, color.RGBA{R: uint8(uint32(x*13%256) * uint32(a) / 255), G: uint8(uint32(y%256) * uint32(a) / 255), B: uint8(uint32(x/40) * uint32(a) / 255), A: a})
			}
			if y%5 == 4 { // some rows the row above again, as between shapes
				copy(img.Pix[y*img.Stride:(y+1)*img.Stride], img.Pix[(y-1)*img.Stride:])
			}
		}
		var b bytes.Buffer
		if err := raster.EncodePNGForTest(&b, img, c.opaque); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("height %d: %v", h, err)
		}
		for y := range h {
			for x := range w {
				want := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				if g := color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA); g != want {
					near := func(a, b uint8) bool { return int(a)-int(b) <= 1 && int(b)-int(a) <= 1 }
					if !near(g.R, want.R) || !near(g.G, want.G) || !near(g.B, want.B) || g.A != want.A {
						t.Fatalf("%d × %d, opaque %v, (%d, %d): %v, want %v", w, h, c.opaque, x, y, g, want)
					}
				}
			}
		}
	}
}

// A PNG is painted and compressed band by band at once on every
// processor, each band's first row filtered without the row above (still
// being painted): it decodes to the pixels of Paint's picture written
// whole, on an opaque, translucent or no background.
func TestPNGDecodesToThePaintedPicture(t *testing.T) {
	var els []string
	for i := range 12 {
		y := strconv.Itoa(i * 55)
		els = append(els,
			`{"type":"rectangle","id":"r`+y+`","x":`+strconv.Itoa(i*13)+`,"y":`+y+`,"width":160,"height":70,"seed":`+y+`,"strokeColor":"#1e1e1e","backgroundColor":"#a5d8ff","fillStyle":"hachure","roughness":1,"strokeWidth":1}`,
			`{"type":"ellipse","id":"e`+y+`","x":`+strconv.Itoa(200-i*7)+`,"y":`+y+`,"width":90,"height":80,"seed":`+y+`,"strokeColor":"#e03131","backgroundColor":"#ffec99","fillStyle":"solid","roughness":1,"strokeWidth":2,"opacity":60}`)
	}
	set := rendertest.Fonts(t)
	for _, bg := range []*render.Color{{R: 255, G: 255, B: 255, A: 255}, {R: 30, G: 200, B: 90, A: 100}, nil} {
		pic := rendertest.Picture(t, false, els...)
		pic.Background = bg
		img, err := raster.Paint(pic, set)
		if err != nil {
			t.Fatal(err)
		}
		var whole, banded bytes.Buffer
		if err := raster.EncodePNGForTest(&whole, img, bg != nil && bg.A == 255); err != nil {
			t.Fatal(err)
		}
		if err := raster.PNG(&banded, pic, set); err != nil {
			t.Fatal(err)
		}
		want, err := png.Decode(&whole)
		if err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&banded)
		if err != nil {
			t.Fatal(err)
		}
		if got.Bounds() != want.Bounds() || want.Bounds().Dy() < 600 {
			t.Fatalf("background %v: %v, want %v (over 600 rows: many bands)", bg, got.Bounds(), want.Bounds())
		}
		for y := range want.Bounds().Dy() {
			for x := range want.Bounds().Dx() {
				w := color.NRGBAModel.Convert(want.At(x, y)).(color.NRGBA)
				if g := color.NRGBAModel.Convert(got.At(x, y)).(color.NRGBA); g != w {
					t.Fatalf("background %v, (%d, %d): %v, want %v", bg, x, y, g, w)
				}
			}
		}
	}
}

// A text taller than a band is painted whole: each band draws the lines
// that reach it, and a line across two bands is drawn in both. Its 40
// lines, the same word 25 px apart, have the same ink.
func TestLongTextIsWholeAcrossBands(t *testing.T) {
	set := rendertest.Fonts(t)
	lines := strings.Repeat(`Hgjy\n`, 39) + `Hgjy`
	text := `{"type":"text","id":"t","x":0,"y":0,"width":60,"height":1000,"seed":3,"text":"` + lines + `","originalText":"` + lines + `","fontSize":20,"fontFamily":5,"textAlign":"left","verticalAlign":"top","lineHeight":1.25}`
	img, err := raster.Paint(rendertest.Picture(t, false, text), set)
	if err != nil {
		t.Fatal(err)
	}
	// The picture has 10 px of padding.
	first := ink(img, image.Rect(0, 10, 80, 35), color.White)
	if first < 60 {
		t.Fatalf("%d inked pixels in the first line", first)
	}
	for i := 1; i < 40; i++ {
		if n := ink(img, image.Rect(0, 10+25*i, 80, 35+25*i), color.White); n != first {
			t.Errorf("line %d: %d inked pixels, want %d as the first", i+1, n, first)
		}
	}
}
