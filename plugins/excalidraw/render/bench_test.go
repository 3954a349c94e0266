package render_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/raster"
	"github.com/dshgo/dsh/plugins/excalidraw/render/svg"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// BenchmarkPicture draws synthetic scenes (those of the speed comparison
// with Excalidraw) as a Picture, an SVG, pixels and a PNG.
func BenchmarkPicture(b *testing.B) {
	set := editorFonts(b)
	for _, n := range []int{100, 1000, 5000} {
		doc, err := scene.Parse(syntheticScene(b, n), scene.Limits{}.ForReading())
		if err != nil {
			b.Fatal(err)
		}
		o := render.DefaultOptions()
		o.MaxPixels = math.MaxInt
		b.Run(fmt.Sprintf("draw/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := render.Draw(doc, o); err != nil {
					b.Fatal(err)
				}
			}
		})
		pic, err := render.Draw(doc, o)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("svg/%d", n), func(b *testing.B) {
			for b.Loop() {
				if err := svg.Write(io.Discard, pic, set); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("paint/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := raster.Paint(pic, set); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("png/%d", n), func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := raster.PNG(&buf, pic, set); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
