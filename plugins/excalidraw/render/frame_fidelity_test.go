//go:build !race

package render_test

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/e2e/rendercheck"
	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/raster"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// frameFloor is the lowest structural similarity an exported frame may
// have with Excalidraw's export of it (the corpus scenes' fidelityFloor):
// a frame drawn with the wrong view, a blank picture or the elements of
// another frame fall under it.
const frameFloor = 0.65

// frameScene has a frame with a labelled child that sticks out of it, an
// element in no frame that overlaps it, one far away, and a second frame
// overlapping the first with a child inside the first's bounds.
const frameScene = `{"type":"excalidraw","version":2,"source":"test","elements":[
{"type":"frame","id":"f","x":-100,"y":300,"width":300,"height":200,"seed":6,"name":"Plan","strokeColor":"#bbb","backgroundColor":"transparent","roughness":0,"opacity":100,"angle":0,"strokeWidth":2,"fillStyle":"solid","strokeStyle":"solid","groupIds":[],"frameId":null,"roundness":null,"boundElements":[],"version":1,"versionNonce":1,"isDeleted":false,"updated":1,"link":null,"locked":false},
{"type":"ellipse","id":"e","x":-150,"y":350,"width":100,"height":100,"seed":7,"frameId":"f","strokeColor":"#1e1e1e","backgroundColor":"#a5d8ff","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"angle":0,"groupIds":[],"roundness":null,"boundElements":[],"version":1,"versionNonce":1,"isDeleted":false,"updated":1,"link":null,"locked":false},
{"type":"rectangle","id":"r","x":0,"y":330,"width":160,"height":70,"seed":8,"frameId":"f","strokeColor":"#1e1e1e","backgroundColor":"transparent","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"angle":0,"groupIds":[],"roundness":{"type":3},"boundElements":[{"type":"text","id":"rt"}],"version":1,"versionNonce":1,"isDeleted":false,"updated":1,"link":null,"locked":false},
{"type":"text","id":"rt","x":32.5,"y":352.5,"width":95,"height":25,"seed":9,"frameId":"f","containerId":"r","text":"Inside","originalText":"Inside","fontSize":20,"fontFamily":5,"textAlign":"center","verticalAlign":"middle","lineHeight":1.25,"autoResize":true,"strokeColor":"#1e1e1e","backgroundColor":"transparent","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"angle":0,"groupIds":[],"roundness":null,"boundElements":[],"version":1,"versionNonce":1,"isDeleted":false,"updated":1,"link":null,"locked":false},
{"type":"rectangle","id":"over","x":150,"y":450,"width":100,"height":100,"seed":10,"frameId":null,"strokeColor":"#e03131","backgroundColor":"#ffc9c9","fillStyle":"hachure","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"angle":0,"groupIds":[],"roundness":null,"boundElements":[],"version":1,"versionNonce":1,"isDeleted":false,"updated":1,"link":null,"locked":false},
{"type":"rectangle","id":"far","x":900,"y":900,"width":50,"height":50,"seed":11,"frameId":null,"strokeColor":"#1e1e1e","backgroundColor":"transparent","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"angle":0,"groupIds":[],"roundness":null,"boundElements":[],"version":1,"versionNonce":1,"isDeleted":false,"updated":1,"link":null,"locked":false},
{"type":"frame","id":"g","x":100,"y":250,"width":300,"height":300,"seed":12,"name":"Other","strokeColor":"#bbb","backgroundColor":"transparent","roughness":0,"opacity":100,"angle":0,"strokeWidth":2,"fillStyle":"solid","strokeStyle":"solid","groupIds":[],"frameId":null,"roundness":null,"boundElements":[],"version":1,"versionNonce":1,"isDeleted":false,"updated":1,"link":null,"locked":false},
{"type":"diamond","id":"d","x":120,"y":420,"width":60,"height":60,"seed":13,"frameId":"g","strokeColor":"#2f9e44","backgroundColor":"#b2f2bb","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"angle":0,"groupIds":[],"roundness":null,"boundElements":[],"version":1,"versionNonce":1,"isDeleted":false,"updated":1,"link":null,"locked":false}
],"appState":{"viewBackgroundColor":"#ffffff"},"files":{}}`

// Frames exported alone, by dsh and by Excalidraw 0.18.1 (exportToSvg /
// exportToBlob with exportingFrame) in headless Chromium: the same size,
// exactly the frame's, and the same picture. The scene above, then the
// frames of the corpus scenes (two a scene at most).
func TestFrameExportAgainstExcalidraw(t *testing.T) {
	h := rendercheck.Start(t)
	set := editorFonts(t)
	type job struct {
		name, frame string
		data        []byte
	}
	jobs := []job{{"synthetic", "f", []byte(frameScene)}}
	for _, f := range testcorpus.Files(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(`"frame"`)) {
			continue
		}
		doc, err := scene.Parse(data, scene.Limits{}.ForReading())
		if err != nil {
			continue
		}
		n := 0
		for _, el := range doc.Elements() {
			typ, _ := el.String("type")
			if del, _ := el.Bool("isDeleted"); del || (typ != "frame" && typ != "magicframe") || n == 2 {
				continue
			}
			id, _ := el.String("id")
			jobs = append(jobs, job{strings.TrimSuffix(filepath.Base(f), ".excalidraw"), id, data})
			n++
		}
	}
	for _, j := range jobs {
		doc, err := scene.Parse(j.data, scene.Limits{}.ForReading())
		if err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		o := render.DefaultOptions()
		o.MaxPixels, o.Frame = math.MaxInt, j.frame
		pic, err := render.Draw(doc, o)
		if err != nil {
			t.Fatalf("%s frame %s: %v", j.name, j.frame, err)
		}
		scale := math.Min(1, math.Sqrt(fidelityPixels/math.Max(1, pic.View.W()*pic.View.H())))
		pic.Scale = scale
		ours, err := raster.Paint(pic, set)
		if err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		ro := rendercheck.DefaultOptions
		ro.Scale, ro.Runs, ro.Frame = scale, 1, j.frame
		out, err := h.Render(j.name+"-"+j.frame, j.data, ro)
		if err != nil {
			t.Fatalf("%s frame %s: Excalidraw: %v", j.name, j.frame, err)
		}
		ref, err := png.Decode(bytes.NewReader(out.PNG))
		if err != nil {
			t.Fatal(err)
		}
		w, hh := pic.PixelSize()
		if w != out.Width || hh != out.Height || pic.View.W() != out.ExportWidth || pic.View.H() != out.ExportHeight {
			t.Errorf("%s frame %s: dsh %d × %d px (%g × %g), Excalidraw %d × %d (%g × %g)", j.name, j.frame, w, hh,
				pic.View.W(), pic.View.H(), out.Width, out.Height, out.ExportWidth, out.ExportHeight)
		}
		sc := rendercheck.Compare(ours, ref)
		t.Logf("%s frame %s: %d × %d px, SSIM %.3f", j.name, j.frame, w, hh, sc.SSIM)
		if sc.SSIM < frameFloor {
			path := filepath.Join(t.TempDir(), j.name+"-"+j.frame+".png")
			if err := rendercheck.WritePNG(path, rendercheck.SideBySide(ours, ref, "dsh | Excalidraw | "+j.name)); err == nil {
				t.Logf("side by side: %s", path)
			}
			t.Errorf("%s frame %s: SSIM %.3f with Excalidraw's export, under %.2f", j.name, j.frame, sc.SSIM, frameFloor)
		}
	}
}
