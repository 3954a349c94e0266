package render_test

import (
	"errors"
	"io"
	"math"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/raster"
	"github.com/dshgo/dsh/plugins/excalidraw/render/svg"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Any document that parses draws without panic, in bounded time, as SVG
// and PNG (the picture shrunk to at most a quarter megapixel).
func FuzzDrawAndPaint(f *testing.F) {
	for _, s := range []string{
		`{"type":"excalidraw","version":2,"elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":10,"height":10,"seed":1}]}`,
		`{"type":"excalidraw","version":2,"elements":[{"type":"arrow","id":"a","x":0,"y":0,"width":10,"height":10,"seed":1,"points":[[0,0],[10,10],[20,0]],"roundness":{"type":2},"startArrowhead":"diamond","endArrowhead":"crowfoot_one_or_many"}]}`,
		`{"type":"excalidraw","version":2,"elements":[{"type":"freedraw","id":"a","x":0,"y":0,"width":10,"height":10,"seed":1,"points":[[0,0],[5,5],[0,1]],"pressures":[0.1,0.9,0.5],"backgroundColor":"#000","fillStyle":"cross-hatch"}]}`,
		`{"type":"excalidraw","version":2,"elements":[{"type":"frame","id":"f","x":0,"y":0,"width":100,"height":100,"seed":1,"name":null},{"type":"text","id":"t","x":0,"y":0,"width":10,"height":10,"seed":1,"text":"a\nb","frameId":"f","angle":1}]}`,
		`{"type":"excalidraw","version":2,"elements":[{"type":"arrow","id":"e","x":0,"y":0,"width":1e9,"height":1,"seed":1,"elbowed":true,"points":[[0,0],[1e9,0],[1e9,1]]}]}`,
		`{"type":"excalidraw","version":2,"elements":[{"type":"image","id":"i","x":0,"y":0,"width":10,"height":10,"seed":1,"fileId":"f","scale":[-1,1],"crop":{"x":0,"y":0,"width":5,"height":5,"naturalWidth":1,"naturalHeight":1}}],"files":{"f":{"id":"f","mimeType":"image/png","dataURL":"data:image/png;base64,iVBORw0KGgo="}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := scene.Parse(data, scene.Limits{MaxElements: 200, MaxSceneBytes: 1 << 20}.ForReading())
		if err != nil {
			return
		}
		o := render.DefaultOptions()
		o.MaxPixels = math.MaxInt
		start := time.Now()
		pic, err := render.Draw(doc, o)
		if errors.Is(err, render.ErrEmpty) || (err != nil && pic == nil) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if a := pic.View.W() * pic.View.H(); a > 0 {
			pic.Scale = math.Min(1, math.Sqrt(float64(1<<18)/a))
		}
		if w, h := pic.PixelSize(); w < 1 || h < 1 {
			return
		}
		if _, err := raster.Paint(pic, nil); err != nil {
			t.Fatal(err)
		}
		if err := svg.Write(io.Discard, pic, nil); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("drawing took %v", d)
		}
	})
}
