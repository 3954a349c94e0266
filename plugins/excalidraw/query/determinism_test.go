package query

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// The same scene read twice gives the same bytes, whatever the order of
// the target's ids; over the real corpus the roles split the live
// elements, Select keeps scene order, and nothing panics.
func TestDeterminismCorpus(t *testing.T) {
	for _, f := range testcorpus.Files(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		render := func() string {
			doc, err := scene.Parse(data, scene.DefaultLimits().ForReading())
			if err != nil {
				t.Fatal(err)
			}
			all := doc.Elements()
			els, _ := Select(all, Target{IncludeDeleted: true})
			rows, _ := Rows(els, all, []string{"all"})
			md, _ := Markdown(els, all, nil)
			g, _ := json.Marshal(Graph(els, all))
			b, _ := Bounds(els)
			return marshal(t, rowsAny(rows)) + md + string(g) + marshal(t, []any{b.X, b.Y, b.Width, b.Height})
		}
		if a, b := render(), render(); a != b {
			t.Fatalf("%s: two reads differ", f)
		}
		doc, _ := scene.Parse(data, scene.DefaultLimits().ForReading())
		all := doc.Elements()
		live, _ := Select(all, Target{})
		n := 0
		for _, r := range roles {
			els, _ := Select(all, Target{Role: r})
			n += len(els)
		}
		if n != len(live) {
			t.Errorf("%s: roles cover %d of %d live elements", f, n, len(live))
		}
		some := ids(live)
		if len(some) > 5 {
			some = some[:5]
		}
		rev := slices.Clone(some)
		slices.Reverse(rev)
		if a, b := selectIDs(t, all, Target{IDs: some}), selectIDs(t, all, Target{IDs: rev}); !slices.Equal(a, b) {
			t.Errorf("%s: order depends on the ids' order: %q %q", f, a, b)
		}
	}
}

func rowsAny[T any](rows []T) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out
}

// Elements with missing or mistyped members are described, not fatal.
func TestOddElements(t *testing.T) {
	all := elements(t, `[
	 {},
	 {"id":7,"type":["x"],"x":"1","y":null,"width":{},"angle":"a"},
	 {"id":"t","type":"text","x":1e308,"y":-1e308,"width":1e308,"height":1,"text":7,"containerId":{"id":"x"}},
	 {"id":"a","type":"arrow","x":0,"y":0,"points":[[0],"p",[1,"2"],[3,4]],"startBinding":"nope","endBinding":{"elementId":"a"}},
	 {"id":"g","type":"rectangle","x":0,"y":0,"width":1,"height":1,"groupIds":"g1","boundElements":7,"link":3,"locked":"yes"}
	]`)
	all = append(all, nil)
	els, err := Select(all, Target{TextContains: "x", Region: &Region{Width: 10, Height: 10}, Role: RoleStandalone})
	if err != nil {
		t.Fatal(err)
	}
	_ = els
	live, _ := Select(all, Target{})
	if len(live) != 5 {
		t.Fatalf("%d", len(live))
	}
	if _, err := Rows(live, all, []string{"all"}); err != nil {
		t.Fatal(err)
	}
	_, _ = json.Marshal(Graph(live, all))
	_, _ = Markdown(live, all, []string{"all"})
	_, _ = Bounds(live)
	if got := rowStrings(t, live[3:4], all, "ends", "points"); got[0] != `{"id":"a","points":[[3,4]]}` {
		t.Fatal(got[0])
	}
}
