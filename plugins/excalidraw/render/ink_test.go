//go:build !race

package render_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/e2e/rendercheck"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/raster"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// ink is how much a picture darkens white: the sum over its pixels of
// one minus their luminance (0..1, from the sRGB values as stored, over
// white where transparent). Two pictures of the same lines have the same
// ink when their strokes are as dark and as wide.
func ink(img image.Image) float64 {
	b := img.Bounds()
	sum := 0.0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA() // premultiplied, 0..65535
			// Over white: c + (1 - a).
			w := float64(0xffff - a)
			l := (0.2126*(float64(r)+w) + 0.7152*(float64(g)+w) + 0.0722*(float64(bl)+w)) / 0xffff
			sum += 1 - l
		}
	}
	return sum
}

// inkScene is a board of elements in a grid, each given as the JSON of its
// type-specific fields (the rest are common: stroke #1e1e1e, width 1).
func inkScene(roughness int, shapes ...string) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"excalidraw","version":2,"source":"dsh-test","elements":[`)
	for i, s := range shapes {
		if i > 0 {
			b.WriteByte(',')
		}
		x, y := float64(i%6)*130, float64(i/6)*130
		fmt.Fprintf(&b, `{"id":"e%d","x":%g,"y":%g,"angle":0,"strokeColor":"#1e1e1e","strokeWidth":1,"strokeStyle":"solid","roughness":%d,"opacity":100,"groupIds":[],"frameId":null,"seed":%d,"version":1,"versionNonce":1,"isDeleted":false,"updated":1,"link":null,"locked":false,"boundElements":[],%s}`,
			i, x, y, roughness, 100+i*13, s)
	}
	b.WriteString(`],"appState":{"viewBackgroundColor":"#ffffff"},"files":{}}`)
	return []byte(b.String())
}

// thinLines are lines 1 px wide at angles from 0° to 90° and back, and
// a curved one.
func thinLines(roughness int) []byte {
	var shapes []string
	for _, deg := range []float64{0, 5, 15, 30, 45, 60, 75, 90, 100, 120, 135, 170} {
		dx, dy := 100*math.Cos(deg*math.Pi/180), 100*math.Sin(deg*math.Pi/180)
		shapes = append(shapes, fmt.Sprintf(`"type":"line","width":%g,"height":%g,"backgroundColor":"transparent","fillStyle":"solid","roundness":null,"points":[[0,0],[%g,%g]]`,
			math.Abs(dx), dy, dx, dy))
	}
	shapes = append(shapes, `"type":"line","width":100,"height":60,"backgroundColor":"transparent","fillStyle":"solid","roundness":{"type":2},"points":[[0,0],[30,60],[70,10],[100,50]]`)
	return inkScene(roughness, shapes...)
}

// hatched are boxes, ellipses and diamonds filled with hachure or
// cross-hatch lines (1 px).
func hatched(fill string) []byte {
	var shapes []string
	for _, kind := range []string{"rectangle", "ellipse", "diamond"} {
		for _, bg := range []string{"#a5d8ff", "#1e1e1e"} {
			shapes = append(shapes, fmt.Sprintf(`"type":%q,"width":110,"height":90,"backgroundColor":%q,"fillStyle":%q,"roundness":null`, kind, bg, fill))
		}
	}
	return inkScene(1, shapes...)
}

// inkRatio paints a board with dsh and has Excalidraw export it, at scale
// 1, and returns dsh's ink over Excalidraw's and the pictures' SSIM.
func inkRatio(t *testing.T, h *rendercheck.Harness, name string, data []byte) (float64, float64) {
	t.Helper()
	doc, err := scene.Parse(data, scene.Limits{}.ForReading())
	if err != nil {
		t.Fatal(err)
	}
	pic, err := render.Draw(doc, render.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ours, err := raster.Paint(pic, editorFonts(t))
	if err != nil {
		t.Fatal(err)
	}
	ro := rendercheck.DefaultOptions
	ro.Runs = 1
	out, err := h.Render(name, data, ro)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := png.Decode(bytes.NewReader(out.PNG))
	if err != nil {
		t.Fatal(err)
	}
	return ink(ours) / ink(ref), rendercheck.Compare(ours, ref).SSIM
}

// Thin strokes (1 px lines, hachure and cross-hatch fills, and rough 2 px
// lines) are as dark in dsh's PNG as in Excalidraw's export: the ink of
// each board within 5% of Excalidraw's.
func TestThinStrokeInk(t *testing.T) {
	h := rendercheck.Start(t)
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"lines-1px", thinLines(0)},
		{"lines-1px-rough", thinLines(1)},
		{"hachure", hatched("hachure")},
		{"cross-hatch", hatched("cross-hatch")},
		// rough.js's two strokes of a line overlap along their edges: a
		// pixel there is covered by their union, not their sum.
		{"lines-2px-rough", bytes.ReplaceAll(thinLines(1), []byte(`"strokeWidth":1`), []byte(`"strokeWidth":2`))},
	} {
		r, s := inkRatio(t, h, c.name, c.data)
		t.Logf("%s: ink %.3f× Excalidraw's, SSIM %.3f", c.name, r, s)
		if math.Abs(r-1) > 0.05 {
			t.Errorf("%s: dsh's PNG has %.3f× the ink of Excalidraw's export, want within 5%%", c.name, r)
		}
	}
}
