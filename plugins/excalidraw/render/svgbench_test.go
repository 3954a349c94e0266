package render_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
	"github.com/dshgo/dsh/plugins/excalidraw/render/svg"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// BenchmarkSVG is an export's SVG of the synthetic scenes (restore, draw,
// write with the fonts): cold, every shape and font subset made anew, as
// Excalidraw's export makes them; warm, a repeated render that reuses
// them.
func BenchmarkSVG(b *testing.B) {
	set := editorFonts(b)
	for _, n := range []int{100, 1000, 5000} {
		doc, err := scene.Parse(syntheticScene(b, n), scene.Limits{}.ForReading())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("cold/%d", n), func(b *testing.B) {
			for b.Loop() {
				render.PurgeShapeCache()
				fonts.PurgeSubsets()
				if _, err := dshSVG(doc, set); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("warm/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := dshSVG(doc, set); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// dshSVG is dsh's SVG of a scene as an export makes it: restore, draw,
// write with the editor's fonts.
func dshSVG(doc *scene.Document, set *fonts.Set) ([]byte, error) {
	o := render.DefaultOptions()
	o.MaxPixels = math.MaxInt
	pic, err := render.Draw(doc, o)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = svg.Write(&b, pic, set)
	return b.Bytes(), err
}
