package lint

import (
	"os"
	"reflect"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Delta, which reads each version once, finds what Neighbours, Run (with
// the changed ids touched) and Diff find as a write called them before: on every corpus scene, with
// one element moved onto another (so findings come and go), frozen
// (shared, as a sealed document's elements are) and not.
func TestDeltaIsNeighboursRunDiff(t *testing.T) {
	eachCorpusScene(t, 2, func(path string, before []*ojson.Object) {
		after := make([]*ojson.Object, len(before))
		copy(after, before)
		i := len(after) / 2
		moved := after[i].Clone()
		x, _ := before[0].Number("x")
		y, _ := before[0].Number("y")
		moved.Set("x", x).Set("y", y)
		after[i] = moved
		id, _ := moved.String("id")
		changed := []string{id}
		for _, freeze := range []bool{false, true} {
			if freeze {
				for _, el := range before {
					el.Freeze()
				}
			}
			scope := Neighbours(before, changed)
			for k := range Neighbours(after, changed) {
				scope[k] = true
			}
			touched := map[string]bool{id: true}
			a1, r1, p1 := Diff(Run(before, Options{Scope: scope, Touched: touched}), Run(after, Options{Scope: scope, Touched: touched}))
			a2, r2, p2 := Delta(before, after, changed, DeltaOptions{})
			if !reflect.DeepEqual(a1, a2) || !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(p1, p2) {
				t.Fatalf("%s (frozen %v): Delta differs", path, freeze)
			}
		}
	})
}

// eachCorpusScene calls fn with the elements of every corpus scene that
// parses and has at least min of them. The scenes passed over must leave most of the corpus (at least
// half of it, and 20 scenes), or the test fails.
func eachCorpusScene(t *testing.T, min int, fn func(path string, elements []*ojson.Object)) {
	t.Helper()
	n := 0
	files := testcorpus.Files(t)
	defer func() {
		if n*2 < len(files) || n < 20 {
			t.Fatalf("only %d of %d corpus scenes compared", n, len(files))
		}
	}()
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := model.Parse(data, model.DefaultLimits())
		if err != nil || len(doc.Elements()) < min {
			continue
		}
		fn(path, doc.Elements())
		n++
	}
}
