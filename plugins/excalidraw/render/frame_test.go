package render

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

const (
	// Beside frame f (x -100…200, y 300…500): an element in no frame that
	// overlaps it, one that does not, a second frame g overlapping f and
	// g's child inside f's bounds.
	overF  = `{"type":"rectangle","id":"over","x":150,"y":450,"width":100,"height":100,"seed":9}`
	farOut = `{"type":"rectangle","id":"far","x":900,"y":900,"width":50,"height":50,"seed":10}`
	frameG = `{"type":"frame","id":"g","x":100,"y":250,"width":300,"height":300,"seed":11,"name":"Other"}`
	inG    = `{"type":"diamond","id":"d","x":120,"y":320,"width":60,"height":60,"seed":12,"frameId":"g"}`
)

// A frame exported as Excalidraw exports one (exportingFrame): the view
// is exactly the frame's bounds, no padding; drawn are the elements that
// overlap it and are in no frame or in it; its children are clipped to it
// with square corners; no frame outline or name is drawn.
func TestFrameExport(t *testing.T) {
	d := doc(t, strings.Join([]string{frameF, inF, overF, farOut, frameG, inG}, ","))
	o := DefaultOptions()
	o.Frame = "f"
	pic, err := Draw(d, o)
	if err != nil {
		t.Fatal(err)
	}
	if pic.View != (geom.R(-100, 300, 200, 500)) {
		t.Fatalf("view %v, want the frame's bounds", pic.View)
	}
	if w, h := pic.PixelSize(); w != 300 || h != 200 {
		t.Fatalf("%d × %d px", w, h)
	}
	if !slices.Equal(pic.Order, []string{"e", "over"}) {
		t.Fatalf("drew %v, want the frame's child and the frameless element over it", pic.Order)
	}
	for _, it := range pic.Items {
		switch it.ID {
		case "e":
			if it.Clip == nil || it.Clip.FrameID != "f" || it.Clip.Radius != 0 || it.Clip.Box != (geom.R(0, 0, 300, 200)) {
				t.Errorf("the child's clip %+v", it.Clip)
			}
		case "over":
			if it.Clip != nil {
				t.Errorf("an element in no frame is clipped: %+v", it.Clip)
			}
		}
	}
	// Options.IDs narrow what is drawn; the view stays the frame.
	o.IDs = []string{"over"}
	if pic, err = Draw(d, o); err != nil || !slices.Equal(pic.Order, []string{"over"}) || pic.View != (geom.R(-100, 300, 200, 500)) {
		t.Fatalf("frame export of ids: %v %v", pic, err)
	}
	o.IDs, o.Frame = nil, "nope"
	if _, err := Draw(d, o); !errors.Is(err, ErrNoFrame) {
		t.Fatalf("no such frame: %v", err)
	}
}

// A frame's child drawn without its frame is drawn as it is, unclipped,
// and the view fits it (it used to be left out of the view: an empty
// 20 × 20 picture).
func TestFrameChildWithoutItsFrame(t *testing.T) {
	o := DefaultOptions()
	o.IDs = []string{"e"}
	pic, err := Draw(doc(t, strings.Join([]string{frameF, inF}, ",")), o)
	if err != nil {
		t.Fatal(err)
	}
	if w, h := pic.PixelSize(); w < 120 || h < 120 {
		t.Fatalf("%d × %d px for a 100 × 100 ellipse and padding", w, h)
	}
	if len(pic.Items) != 1 || pic.Items[0].Clip != nil {
		t.Fatalf("items %+v", pic.Items)
	}
}
