package raster_test

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/render/raster"
	"github.com/dshgo/dsh/plugins/excalidraw/render/rendertest"
)

// line is a level line 100 long of rough.js's two strokes (roughness 0:
// both on the same points) at x, y.
func line(id string, x, y, width string) string {
	return `{"type":"line","id":"` + id + `","x":` + x + `,"y":` + y + `,"width":100,"height":0,"seed":1,"strokeColor":"#1e1e1e","backgroundColor":"transparent","roughness":0,"strokeWidth":` + width + `,"points":[[0,0],[100,0]]}`
}

// Strokes are as dark as Chromium's canvas draws them (the values are
// Excalidraw's export's): a 1 px line is a hairline whose two strokes
// blend one over the other (at a row boundary each row is ¾ covered, not
// solid), and a 2 px line covers a pixel by the union of its strokes (a
// row ¾ under it is ¾ covered, not solid).
func TestThinStrokesBlendAsChromiums(t *testing.T) {
	img, err := raster.Paint(rendertest.Picture(t, false,
		line("a", "0", "0", "1"),
		line("b", "0", "30", "1"),
		line("c", "150", "30.25", "2"),
	), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The picture starts 10 px (the padding) above and left of a.
	for _, c := range []struct {
		x, y int
		want uint8
	}{
		{50, 9, 86}, {50, 10, 86}, // a: rows 9 and 10 half under each stroke
		{50, 39, 86}, {50, 40, 86}, // b
		{200, 39, 85}, {200, 40, 30}, {200, 41, 198}, // c: 39.25–41.25
	} {
		if got := img.RGBAAt(c.x, c.y).R; got < c.want-3 || got > c.want+3 {
			t.Errorf("pixel (%d, %d): red %d, want %d±3 (as Chromium)", c.x, c.y, got, c.want)
		}
	}
}
