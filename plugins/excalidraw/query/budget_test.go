package query

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// maxRowBytes is the agent-surface budget: a read of a scene's default
// rows costs at most this many bytes per live element, on every scene of
// the corpus with more than one element. (One row alone, a text of
// MaxRowText characters, is about 140 bytes: a budget per element is
// for reads of several.)
const maxRowBytes = 120

// sceneRowBytes is the size of the default rows of every live element of
// the scene in file f, as a read sends them (EncodeRows, one separator
// per row), and how many live elements they describe.
func sceneRowBytes(t *testing.T, f string, fields []string) (size, elements int) {
	t.Helper()
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := scene.Parse(data, scene.DefaultLimits().ForReading())
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(f), err)
	}
	els, err := Select(doc.Elements(), Target{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Rows(els, doc.Elements(), fields)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range EncodeRows(rows) {
		size += len(r) + 1
	}
	return size, len(els)
}

// TestCorpusRowBudget: the default rows of each corpus scene (of more
// than one element) cost at most maxRowBytes per live element; the
// average over the corpus and other field sets' are logged.
func TestCorpusRowBudget(t *testing.T) {
	total, n, worst, worstName := 0, 0, 0.0, ""
	for _, f := range testcorpus.Files(t) {
		size, els := sceneRowBytes(t, f, nil)
		total, n = total+size, n+els
		if els < 2 {
			continue
		}
		avg := float64(size) / float64(els)
		if avg > worst {
			worst, worstName = avg, filepath.Base(f)
		}
		if avg > maxRowBytes {
			t.Errorf("%s: rows cost %.1f bytes per element (%d elements); the budget is %d", filepath.Base(f), avg, els, maxRowBytes)
		}
	}
	t.Logf("default rows: %.1f bytes per element over %d live elements; the costliest scene %.1f (%s); budget %d",
		float64(total)/float64(n), n, worst, worstName, maxRowBytes)
	for _, fs := range [][]string{{"id", "type"}, {"id", "type", "x", "y", "w", "h"}, {"id", "type", "x", "y", "w", "h", "text", "ends", "in"}, {"style"}, {"groupIds"}, {"frameId"}, {"all"}} {
		total, n := 0, 0
		for _, f := range testcorpus.Files(t) {
			size, els := sceneRowBytes(t, f, fs)
			total, n = total+size, n+els
		}
		t.Logf("fields %v: %.1f bytes per element", fs, float64(total)/float64(n))
	}
}

// maxGraphBytes is the agent-surface budget for a graph read of a
// 50-node diagram: 6 KB, read as the stricter 6,000 bytes.
const maxGraphBytes = 6000

// fiftyNodes builds, with the real builder, 50 labelled boxes in a 10×5
// grid joined by 60 labelled bound arrows (each box to its right and
// lower neighbour, then a few long ones). Every id is a 21-character
// nanoid, as the editor makes them: the worst case for size.
func fiftyNodes(t testing.TB) []*ojson.Object {
	t.Helper()
	rnd := rand.New(rand.NewPCG(7, 7))
	const alphabet = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"
	nanoid := func() string {
		b := make([]byte, 21)
		for i := range b {
			b[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		return string(b)
	}
	names := []string{"API gateway", "Auth service", "User DB", "Billing", "Queue", "Worker", "Cache", "Search index", "Notifier", "Web app"}
	verbs := []string{"calls", "reads", "writes", "publishes", "consumes", "queries"}
	ids := make([]string, 50)
	var inputs []json.RawMessage
	for i := range ids {
		ids[i] = nanoid()
		in, _ := json.Marshal(map[string]any{
			"type": "rectangle", "id": ids[i], "x": (i % 10) * 260, "y": (i / 10) * 200, "width": 180, "height": 80,
			"label": map[string]any{"text": fmt.Sprintf("%s %d", names[i%len(names)], i/len(names)+1)},
		})
		inputs = append(inputs, in)
	}
	arrow := func(a, b int) {
		in, _ := json.Marshal(map[string]any{
			"type": "arrow", "startElementId": ids[a], "endElementId": ids[b],
			"label": map[string]any{"text": verbs[len(inputs)%len(verbs)]},
		})
		inputs = append(inputs, in)
	}
	n := 0
	for i := 0; i < 50 && n < 60; i++ {
		if i%10 < 9 {
			arrow(i, i+1)
			n++
		}
		if i+10 < 50 && i%3 == 0 {
			arrow(i, i+10)
			n++
		}
	}
	for i := 0; n < 60; i += 7 {
		arrow(i%50, (i+23)%50)
		n++
	}
	res, err := build.Build(inputs, build.Context{Rand: rand.New(rand.NewPCG(1, 2)), Now: func() time.Time { return time.UnixMilli(0) }})
	if err != nil {
		t.Fatal(err)
	}
	return res.Elements
}

func TestGraphBudget(t *testing.T) {
	all := fiftyNodes(t)
	els, err := Select(all, Target{})
	if err != nil {
		t.Fatal(err)
	}
	g := Graph(els, all)
	if len(g.Nodes) != 50 || len(g.Edges) != 60 || len(g.Unbound) != 0 {
		t.Fatalf("%d nodes, %d edges, %d unbound", len(g.Nodes), len(g.Edges), len(g.Unbound))
	}
	b, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("graph of 50 labelled boxes and 60 labelled bound arrows (21-character ids): %d bytes of compact JSON (budget %d)", len(b), maxGraphBytes)
	if len(b) > maxGraphBytes {
		t.Fatalf("graph is %d bytes; the budget is %d", len(b), maxGraphBytes)
	}
	rows, _ := Rows(els, all, nil)
	size := 0
	for _, r := range EncodeRows(rows) {
		size += len(r) + 1
	}
	t.Logf("the same diagram as default rows: %d bytes (%d rows)", size, len(rows))
}
