package scene

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// restoreHelperDir holds the Node helper that runs Excalidraw 0.18.1's own
// restoreElements (see build/restore_fidelity_test.go).
const restoreHelperDir = "build/testdata/restore"

// requireRestore returns the node binary, or skips (fails under CI=true)
// when Node or the pinned packages are missing, as the build package's
// fidelity test does.
func requireRestore(t *testing.T) string {
	t.Helper()
	missing := func(why string) {
		msg := why + "; install with: " + filepath.Join(restoreHelperDir, "setup.sh") + " (npm ci)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	for _, pkg := range []string{"@excalidraw/excalidraw", "esbuild", "jsdom"} {
		if _, err := os.Stat(filepath.Join(restoreHelperDir, "node_modules", pkg, "package.json")); err != nil {
			missing(pkg + " is not installed in " + restoreHelperDir)
		}
	}
	return node
}

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
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "restore-corpus.mjs")
	cmd.Dir = restoreHelperDir
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("restore-corpus.mjs: %v\n%s", err, tail(stderr.Bytes(), 4000))
	}
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

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
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
