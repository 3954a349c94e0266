package render_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/raster"
	"github.com/dshgo/dsh/plugins/excalidraw/render/svg"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

func parse(t testing.TB, elements ...string) *scene.Document {
	t.Helper()
	d, err := scene.Parse([]byte(`{"type":"excalidraw","version":2,"source":"t","elements":[`+strings.Join(elements, ",")+
		`],"appState":{"viewBackgroundColor":"#ffffff"},"files":{}}`), scene.Limits{}.ForReading())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func box(id string, version int, width float64) string {
	return fmt.Sprintf(`{"type":"rectangle","id":%q,"x":0,"y":0,"width":%g,"height":60,"seed":7,"version":%d,"versionNonce":1,"fillStyle":"hachure","backgroundColor":"#a5d8ff","roundness":{"type":3}}`, id, width, version)
}

// misses is how many shapes a call generates: the shape cache's misses.
func misses(t *testing.T, f func()) int64 {
	t.Helper()
	_, before := render.ShapeCacheStats()
	f()
	_, after := render.ShapeCacheStats()
	return after - before
}

// An element drawn again unchanged, for the SVG or the PNG, is not
// generated again; a new version, or another element under the same id
// and version (another scene), is.
func TestShapesAreGeneratedOncePerElementVersion(t *testing.T) {
	render.PurgeShapeCache()
	set := editorFonts(t)
	draw := func(d *scene.Document) *render.Picture {
		pic, err := render.Draw(d, render.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		return pic
	}
	first := parse(t, box("cache-a", 1, 100), box("cache-b", 1, 120))
	var pic *render.Picture
	if n := misses(t, func() { pic = draw(first) }); n != 2 {
		t.Fatalf("first picture: %d shapes generated, want 2", n)
	}
	var a bytes.Buffer
	if err := svg.Write(&a, pic, set); err != nil {
		t.Fatal(err)
	}
	var again *render.Picture
	if n := misses(t, func() { again = draw(first) }); n != 0 {
		t.Fatalf("unchanged scene: %d shapes generated, want 0", n)
	}
	var b bytes.Buffer
	if err := svg.Write(&b, again, set); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the second SVG of an unchanged scene differs from the first")
	}
	if n := misses(t, func() {
		if err := raster.PNG(&bytes.Buffer{}, draw(first), set); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("a PNG after the SVG: %d shapes generated, want 0", n)
	}
	if n := misses(t, func() { draw(parse(t, box("cache-a", 2, 140), box("cache-b", 1, 120))) }); n != 1 {
		t.Fatalf("one element changed: %d shapes generated, want 1", n)
	}
	// Same id and version, another width (another board's element).
	var other *render.Picture
	if n := misses(t, func() { other = draw(parse(t, box("cache-a", 1, 300))) }); n != 1 {
		t.Fatalf("another element under the same id and version: %d shapes generated, want 1", n)
	}
	if w := other.Bounds["cache-a"].W(); w < 290 {
		t.Fatalf("the other element is drawn %v wide, want about 300 (a stale shape)", w)
	}
}

// A freedraw stroke's outline is made once, and again when its points
// change.
func TestFreedrawOutlinesAreMadeOncePerElementVersion(t *testing.T) {
	render.PurgeShapeCache()
	stroke := func(version int, lastX float64) string {
		return fmt.Sprintf(`{"type":"freedraw","id":"fd","x":0,"y":0,"width":%g,"height":30,"seed":5,"version":%d,"versionNonce":2,"points":[[0,0],[10,5],[20,15],[%g,30]],"pressures":[],"simulatePressure":true}`, lastX, version, lastX)
	}
	outlineMisses := func(doc *scene.Document) int64 {
		_, before := render.OutlineCacheStats()
		if _, err := render.Draw(doc, render.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
		_, after := render.OutlineCacheStats()
		return after - before
	}
	if n := outlineMisses(parse(t, stroke(1, 30))); n != 1 {
		t.Fatalf("first picture: %d outlines made, want 1", n)
	}
	if n := outlineMisses(parse(t, stroke(1, 30))); n != 0 {
		t.Fatalf("unchanged stroke: %d outlines made, want 0", n)
	}
	if n := outlineMisses(parse(t, stroke(1, 60))); n != 1 {
		t.Fatalf("other points under the same version: %d outlines made, want 1", n)
	}
}

// Draws of the same scenes at once share the cache and agree.
func TestShapeCacheConcurrentDraws(t *testing.T) {
	render.PurgeShapeCache()
	set := editorFonts(t)
	doc := parse(t, box("c1", 1, 100), box("c2", 1, 80), box("c3", 3, 90))
	out := make([]string, 8)
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() {
			pic, err := render.Draw(doc, render.DefaultOptions())
			if err != nil {
				t.Error(err)
				return
			}
			var b bytes.Buffer
			if err := svg.Write(&b, pic, set); err != nil {
				t.Error(err)
			}
			out[i] = b.String()
		})
	}
	wg.Wait()
	for i := range out {
		if out[i] != out[0] {
			t.Fatalf("draw %d differs from draw 0", i)
		}
	}
}
