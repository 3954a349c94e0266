package service

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// inked counts the pixels of a picture that are not its white background.
func inked(t *testing.T, data []byte) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, g, bl, _ := img.At(x, y).RGBA(); r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				n++
			}
		}
	}
	return n
}

// A frame named by a target (frame_name, frame_ids, or ids that are its
// id) is exported as Excalidraw exports a frame: a picture of exactly the
// frame's size, with what is in it drawn (it was an empty 20 × 20 image).
func TestRenderAFrameByNameAndID(t *testing.T) {
	s, _ := withExports(t)
	var frameID string
	_, err := s.Write(ctx, WriteRequest{Name: "flow"}, func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		id, err := tx.CreateFrame("Plan", &engine.Box{X: -20, Y: -30, Width: 250, Height: 140}, []string{"a"}, 0, "/")
		frameID = id
		return PlanResult{Targets: []string{id}}, err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]query.Target{
		"frame_name": {FrameName: "plan"},
		"frame_ids":  {FrameIDs: []string{frameID}},
		"ids":        {IDs: []string{frameID}},
	} {
		res, err := s.Render(ctx, RenderRequest{Name: "flow", Target: target, Scale: 1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Width != 250 || res.Height != 140 || res.Origin != [2]float64{-20, -30} {
			t.Errorf("%s: %d × %d at %v, want the frame's 250 × 140 at (-20, -30)", name, res.Width, res.Height, res.Origin)
		}
		if n := inked(t, res.Data); n < 500 {
			t.Errorf("%s: %d pixels drawn: blank", name, n)
		}
		svg, err := s.Render(ctx, RenderRequest{Name: "flow", Target: target, Scale: 1, Format: RenderSVG})
		if err != nil || !strings.Contains(string(svg.Data), `width="250" height="140"`) || strings.Contains(string(svg.Data), ">Plan<") {
			t.Errorf("%s: svg %.300s %v", name, svg.Data, err)
		}
	}
	// The frame's child is clipped to it: the arrow leaving it does not
	// widen the picture; an export has the same size.
	ex, err := s.Export(ctx, ExportRequest{RenderRequest: RenderRequest{Name: "flow", Target: query.Target{FrameName: "Plan"}}})
	if err != nil || ex.Width != 250 || ex.Height != 140 {
		t.Fatalf("export %+v %v", ex, err)
	}
}
