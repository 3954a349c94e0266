package scene

import (
	"fmt"
	"testing"

	"github.com/dshgo/dsh/internal/e2e/restorecheck"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// requireRestore returns the node binary for the restore harness (see
// internal/e2e/restorecheck).
func requireRestore(t *testing.T) string { return restorecheck.Require(t) }

// restored is what Excalidraw's restoreElements returns for one scene,
// without and with repairBindings, or the error it threw.
type restored struct {
	plain, repaired []*ojson.Object
	err             string
}

// restoreScenes restores many scenes in one Node process
// (restore-corpus.mjs).
func restoreScenes(t *testing.T, node string, scenes [][]*ojson.Object) []restored {
	t.Helper()
	in := make([]any, len(scenes))
	for i, s := range scenes {
		in[i] = anySlice(s)
	}
	data, err := ojson.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := restorecheck.Run(t, node, "restore-corpus.mjs", data)
	v, err := ojson.Decode(out, ojson.Limits{MaxBytes: 1 << 30, MaxDepth: 64})
	if err != nil {
		t.Fatalf("restore-corpus.mjs output: %v", err)
	}
	pairs, _ := v.([]any)
	if len(pairs) != len(scenes) {
		t.Fatalf("restore-corpus.mjs returned %d scenes for %d", len(pairs), len(scenes))
	}
	res := make([]restored, len(pairs))
	for i, p := range pairs {
		if o, ok := p.(*ojson.Object); ok {
			res[i].err, _ = o.String("error")
			continue
		}
		pair, _ := p.([]any)
		if len(pair) != 2 {
			t.Fatalf("scene %d: malformed restore output", i)
		}
		res[i] = restored{plain: objects(pair[0]), repaired: objects(pair[1])}
	}
	return res
}

// mustRestore restores scenes that restore must accept.
func mustRestore(t *testing.T, node string, scenes [][]*ojson.Object) []restored {
	t.Helper()
	res := restoreScenes(t, node, scenes)
	for i, r := range res {
		if r.err != "" {
			t.Fatalf("scene %d: restore threw: %s", i, r.err)
		}
	}
	return res
}

func anySlice(els []*ojson.Object) []any {
	out := make([]any, len(els))
	for i, e := range els {
		out[i] = e
	}
	return out
}

func objects(v any) []*ojson.Object {
	arr, _ := v.([]any)
	out := make([]*ojson.Object, len(arr))
	for i, e := range arr {
		out[i], _ = e.(*ojson.Object)
	}
	return out
}

// restoreDiff lists how restore changed an element: members added,
// removed or changed (numbers compared by value), and a change of member
// order. Restore spreads the element first, so it keeps the order of the
// members an element has; a different order means it added or removed
// some.
func restoreDiff(want, got *ojson.Object) []string {
	var diffs []string
	for _, k := range want.Keys() {
		gv, ok := got.Get(k)
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s removed", k))
		case !sameJSON(mustGet(want, k), gv):
			diffs = append(diffs, fmt.Sprintf("%s: %s became %s", k, compactJSON(mustGet(want, k)), compactJSON(gv)))
		}
	}
	for _, k := range got.Keys() {
		if !want.Has(k) {
			diffs = append(diffs, fmt.Sprintf("%s added: %s", k, compactJSON(mustGet(got, k))))
		}
	}
	if len(diffs) == 0 && fmt.Sprint(want.Keys()) != fmt.Sprint(got.Keys()) {
		diffs = append(diffs, fmt.Sprintf("member order %v became %v", want.Keys(), got.Keys()))
	}
	return diffs
}

func compactJSON(v any) string {
	b, err := ojson.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
