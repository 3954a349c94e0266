package scene

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// indexScene is a scene of complete rectangles with the given indices
// (nil: null, absent: the member left out).
func indexScene(indices []any) []*ojson.Object {
	els := make([]*ojson.Object, len(indices))
	for i, k := range indices {
		els[i] = rect(fmt.Sprintf("r%d", i)).Set("boundElements", []any{})
		switch k {
		case absent:
			els[i].Delete("index")
		default:
			els[i].Set("index", k)
		}
	}
	return els
}

// absent marks an index member left out.
var absent = &struct{}{}

func indicesOf(els []*ojson.Object) []any {
	out := make([]any, len(els))
	for i, el := range els {
		out[i] = mustGet(el, "index")
	}
	return out
}

func TestNormalizeIndices(t *testing.T) {
	cases := []struct {
		in   []any
		want []any
	}{
		{[]any{nil, absent, nil}, []any{"a0", "a1", "a2"}},
		{[]any{"a0", "a5", "b01"}, []any{"a0", "a5", "b01"}},
		{[]any{"a0", nil, "a2"}, []any{"a0", "a1", "a2"}},
		{[]any{"a2", "a1", "a3"}, []any{"a2", "a2V", "a3"}}, // as Excalidraw does
		{[]any{"a0", "a0", "a0"}, []any{"a0", "a1", "a2"}},
		{[]any{"a1", "a00", "x", num(5), "", "b0"}, []any{"a1", "a2", "a3", "a4", "a5", "a6"}}, // malformed: regenerated
		{[]any{"a0", nil, "a0V", nil}, []any{"a0", "a0G", "a0V", "a1"}},
	}
	for _, c := range cases {
		d, rep := normalizeOf(indexScene(c.in)...)
		if got := indicesOf(d.Elements()); !slices.EqualFunc(got, c.want, sameJSON) {
			t.Errorf("%v: got %v, want %v", c.in, got, c.want)
		}
		changed := 0
		for i := range c.in {
			if !sameJSON(c.in[i], c.want[i]) {
				changed++
			}
		}
		if rep.Fixes[FixIndex] != changed {
			t.Errorf("%v: %d index fixes, want %d", c.in, rep.Fixes[FixIndex], changed)
		}
	}
}

// Re-indexed elements get their version bumped, as mutateElement does.
func TestNormalizeIndexBumpsVersion(t *testing.T) {
	els := indexScene([]any{"a0", nil})
	els[1].Set("version", num(4)).Set("updated", num(5)).Set("versionNonce", num(9))
	els[0].Set("updated", num(7))
	normalizeOf(els...)
	wantJSON(t, els[0], "version", num(1))
	wantJSON(t, els[1], "version", num(5))
	wantJSON(t, els[1], "updated", num(7)) // the latest in the document
	if sameJSON(mustGet(els[1], "versionNonce"), num(9)) {
		t.Error("versionNonce unchanged")
	}
}

// The greedy fallback keeps increasing keys and yields a valid order for
// any input.
func TestGreedyIndices(t *testing.T) {
	for _, keys := range [][]string{
		{},
		{"", "", ""},
		{"b01", "a0", "c000", "", "c000", "a1"},
		{"Zz", "a0", "Zz"},
	} {
		got := greedyIndices(keys)
		if len(got) != len(keys) || len(findex.CheckOrder(got)) != 0 {
			t.Errorf("%q → %q", keys, got)
		}
	}
	if got := greedyIndices([]string{"b01", "a0", "c000"}); !slices.Equal(got, []string{"b01", "b02", "c000"}) {
		t.Errorf("got %q", got)
	}
}

// TestNormalizeIndicesMatchExcalidraw runs random index layouts through
// Excalidraw's own restore: where restore succeeds on the input, the
// indices must be exactly its own; on every input, the normalized scene
// must come back from restore unchanged.
func TestNormalizeIndicesMatchExcalidraw(t *testing.T) {
	t.Parallel() // most of the time is Node's, which can overlap
	node := requireRestore(t)
	pool := []any{nil, absent, "a0", "a1", "a2", "a3", "a5", "a0V", "a1V", "b01", "Zz", "Zy", "a4", "c000"}
	malformed := []any{"a00", "x", num(5), "", "b0"}
	rng := rand.New(rand.NewPCG(1, 2))
	var inputs [][]any
	for range 300 {
		n := 1 + rng.IntN(12)
		in := make([]any, n)
		for i := range in {
			in[i] = pool[rng.IntN(len(pool))]
			if rng.IntN(20) == 0 {
				in[i] = malformed[rng.IntN(len(malformed))]
			}
		}
		inputs = append(inputs, in)
	}
	var orig, norm [][]*ojson.Object
	for _, in := range inputs {
		orig = append(orig, indexScene(in))
		d, _ := normalizeOf(indexScene(in)...)
		norm = append(norm, d.Elements())
	}
	fromOrig := restoreScenes(t, node, orig)
	fromNorm := mustRestore(t, node, norm)
	compared, threw := 0, 0
	for i, in := range inputs {
		name := fmt.Sprint(in)
		compareRestored(t, name, "restore", norm[i], fromNorm[i].plain)
		compareRestored(t, name, "restore+repairBindings", norm[i], fromNorm[i].repaired)
		if fromOrig[i].err != "" {
			threw++
			continue
		}
		if slices.ContainsFunc(in, func(k any) bool { return slices.Contains(malformed, k) }) {
			continue // Excalidraw keeps malformed keys that happen to sort right
		}
		compared++
		want, got := indicesOf(fromOrig[i].repaired), indicesOf(norm[i])
		if !slices.EqualFunc(got, want, sameJSON) {
			t.Errorf("%v: Normalize gives %v, Excalidraw %v", in, got, want)
		}
	}
	t.Logf("%d layouts: %d compared with Excalidraw's keys, %d on which restore throws", len(inputs), compared, threw)
}
