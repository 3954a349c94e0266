package render_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/svg"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// A board drawn as a write left it (sealed: its elements frozen, lent to
// Draw's fork rather than copied and restored again) draws as the same
// board read from its bytes, on every scene of the corpus a write could
// leave; and drawing it changes nothing of it (a frozen element written
// to would panic).
func TestDrawStoredCorpus(t *testing.T) {
	set := editorFonts(t)
	o := render.DefaultOptions()
	o.MaxPixels = math.MaxInt
	drawn := 0
	for _, path := range testcorpus.Files(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// What a write stores: the normalized bytes, sealed as written.
		doc, err := scene.Parse(data, scene.Limits{}.ForReading())
		if err != nil {
			continue
		}
		scene.Normalize(doc)
		if len(scene.Errors(doc, scene.Limits{})) > 0 {
			continue
		}
		stored, sp, err := scene.Codec{}.EncodeSplit(doc)
		if err != nil {
			t.Fatal(err)
		}
		doc.Seal(sp, scene.Limits{})
		read, err := scene.Parse(stored, scene.Limits{}.ForReading())
		if err != nil {
			t.Fatal(err)
		}
		svgOf := func(d *scene.Document) []byte {
			pic, err := render.Draw(d, o)
			if err != nil {
				return []byte("error: " + err.Error())
			}
			var b bytes.Buffer
			if err := svg.Write(&b, pic, set); err != nil {
				t.Fatalf("%s: %v", filepath.Base(path), err)
			}
			return b.Bytes()
		}
		if got, want := svgOf(doc), svgOf(read); !bytes.Equal(got, want) {
			t.Errorf("%s: drawn from the sealed board (%d bytes) is not drawn from its bytes (%d bytes)", filepath.Base(path), len(got), len(want))
		}
		if again, _, err := (scene.Codec{}).EncodeSplit(doc); err != nil || !bytes.Equal(again, stored) || !doc.Sealed() {
			t.Errorf("%s: drawing changed the sealed board (err %v)", filepath.Base(path), err)
		}
		drawn++
	}
	if drawn == 0 {
		t.Fatal("no scene of the corpus could be sealed")
	}
	t.Logf("%d scenes drawn sealed and read", drawn)
}
