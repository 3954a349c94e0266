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
		// As a board is drawn after a write: sealed, its elements frozen.
		stored := sealedDoc(b, syntheticScene(b, n))
		b.Run(fmt.Sprintf("draw-stored/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := render.Draw(stored, o); err != nil {
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

// sealedDoc is data as the scene service leaves a board after a write
// (storedOrNil), or fails tb.
func sealedDoc(tb testing.TB, data []byte) *scene.Document {
	tb.Helper()
	doc := storedOrNil(data)
	if doc == nil {
		tb.Fatal("not a scene a write leaves")
	}
	return doc
}

// storedOrNil is data as the scene service leaves a board after a write:
// normalized, checked, encoded and sealed (scene.Document.Seal); nil when
// it is not a scene a write could leave (it does not parse, or has errors
// once normalized).
func storedOrNil(data []byte) *scene.Document {
	doc, err := scene.Parse(data, scene.Limits{}.ForReading())
	if err != nil {
		return nil
	}
	scene.Normalize(doc)
	if len(scene.Errors(doc, scene.Limits{})) > 0 {
		return nil
	}
	_, sp, err := scene.Codec{}.EncodeSplit(doc)
	if err != nil {
		return nil
	}
	doc.Seal(sp, scene.Limits{})
	if !doc.Sealed() {
		return nil
	}
	return doc
}
