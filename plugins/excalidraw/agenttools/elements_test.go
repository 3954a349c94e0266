package agenttools

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// dirHash is a digest of every file under dir (names and bytes), to show
// a call changed nothing on disk.
func dirHash(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		h.Write([]byte(rel + "\x00"))
		h.Write(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func strs(t testing.TB, v any) []string {
	t.Helper()
	arr, _ := v.([]any)
	out := make([]string, len(arr))
	for i, x := range arr {
		out[i], _ = x.(string)
	}
	return out
}

// TestDryRunWritesNothing: a dry run plans, lints and answers the
// envelope with persisted:false, and the drawings directory is byte for
// byte as it was.
func TestDryRunWritesNothing(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	before := dirHash(t, e.dir)
	out := e.ok(t, MoveTool, `{"name":"flow","ids":["a"],"dx":10,"options":{"dryRun":true}}`)
	if out["persisted"] != false || num(t, out["revision"]) != 1 {
		t.Fatalf("dry run envelope: %v", out)
	}
	ch := out["changed"].(map[string]any)
	if !slices.Contains(strs(t, ch["updated"]), "a") {
		t.Fatalf("a dry run must still say what it would change: %v", ch)
	}
	if after := dirHash(t, e.dir); after != before {
		t.Fatal("a dry run changed the drawings directory")
	}
}

// TestStrictAborts: with strict, a write that would add a lint error (a
// text of nothing but spaces is empty_text) is refused and nothing is
// written; without strict the same write lands and reports the finding.
func TestStrictAborts(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	before := dirHash(t, e.dir)
	args := `{"name":"flow","elements":[{"type":"text","x":0,"y":300,"text":"   "}]`
	eo := e.fail(t, BatchCreateTool, args+`,"options":{"strict":true}}`, "invalid_operation")
	d := eo["details"].(map[string]any)
	if d["reason"] != "strict" || d["pointer"] != "/options/strict" {
		t.Fatalf("strict refusal details: %v", d)
	}
	if after := dirHash(t, e.dir); after != before {
		t.Fatal("a refused strict write changed the drawings directory")
	}
	out := e.ok(t, BatchCreateTool, args+`}`)
	if f := out["lint"].(map[string]any)["new"].([]any); len(f) == 0 || f[0].(map[string]any)["code"] != "empty_text" {
		t.Fatalf("without strict the finding is reported: %v", out["lint"])
	}
}

// TestStrictAbortsOnNewErrorsOnly: strict lets a write through whose only
// new findings are warnings (two overlapping boxes), and reports them.
func TestStrictAbortsOnNewErrorsOnly(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	out := e.ok(t, BatchCreateTool, `{"name":"flow","elements":[{"type":"rectangle","id":"p","x":0,"y":300,"width":100,"height":60},{"type":"rectangle","id":"q","x":10,"y":310,"width":100,"height":60}],"options":{"strict":true}}`)
	lint := out["lint"].(map[string]any)
	found := false
	for _, f := range lint["new"].([]any) {
		if f.(map[string]any)["code"] == "overlap" {
			found = true
		}
	}
	if !found || out["persisted"] != true {
		t.Fatalf("the overlap warning should be reported and the write kept: %v", out)
	}
	// Moving one box away resolves it.
	out = e.ok(t, MoveTool, `{"name":"flow","ids":["q"],"dx":300}`)
	resolved := out["lint"].(map[string]any)["resolved"].([]any)
	if len(resolved) == 0 || resolved[0].(map[string]any)["code"] != "overlap" {
		t.Fatalf("moving the box away should resolve the overlap: %v", out["lint"])
	}
}

// TestExpectNamesExpectedAndActual: each kind of precondition fails with
// its expected and actual values, at its pointer, writing nothing.
func TestExpectNamesExpectedAndActual(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	before := dirHash(t, e.dir)
	for _, c := range []struct{ expect, pointer, expected, actual string }{
		{`{"revision":7}`, "/options/expect/revision", "7", "1"},
		{`{"present":["a","zz"]}`, "/options/expect/present/1", "present", "absent"},
		{`{"absent":["b"]}`, "/options/expect/absent/0", "absent", "present"},
	} {
		eo := e.fail(t, MoveTool, `{"name":"flow","ids":["a"],"dx":1,"options":{"expect":`+c.expect+`}}`, "invalid_operation")
		d := eo["details"].(map[string]any)
		if d["pointer"] != c.pointer || d["reason"] != "expectation_failed" ||
			!strings.Contains(jsonOf(d["expected"]), c.expected) || !strings.Contains(jsonOf(d["actual"]), c.actual) {
			t.Errorf("expect %s: details %v", c.expect, d)
		}
	}
	eo := e.fail(t, MoveTool, `{"name":"flow","ids":["a"],"dx":1,"options":{"expect":{"counts":[{"target":{"types":["ellipse"]},"min":2}]}}}`, "invalid_operation")
	if d := eo["details"].(map[string]any); d["pointer"] != "/options/expect/counts/0" || jsonOf(d["actual"]) != "1" || jsonOf(d["min"]) != "2" {
		t.Errorf("count expectation: %v", d)
	}
	if after := dirHash(t, e.dir); after != before {
		t.Fatal("a failed expectation changed the drawings directory")
	}
	// Met expectations let the write through.
	e.ok(t, MoveTool, `{"name":"flow","ids":["a"],"dx":1,"options":{"expect":{"revision":1,"present":["a"],"absent":["zz"],"counts":[{"target":{"types":["ellipse"]},"min":1,"max":1}]}}}`)
}

func jsonOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	return strings.TrimSpace(strings.Trim(strings.ReplaceAll(strings.ReplaceAll(fmtAny(v), "\n", ""), " ", ""), `"`))
}

// TestUnchangedWriteSaysSo: a write that changes nothing says
// unchanged:true and does not write.
func TestUnchangedWriteSaysSo(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	before := dirHash(t, e.dir)
	out := e.ok(t, MoveTool, `{"name":"flow","ids":["a"],"dx":0,"dy":0}`)
	if out["unchanged"] != true || out["persisted"] != false || num(t, out["revision"]) != 1 {
		t.Fatalf("a no-op move: %v", out)
	}
	if dirHash(t, e.dir) != before {
		t.Fatal("a no-op write changed the drawings directory")
	}
}

// TestTwoAgentsWithoutRevisions: two agents edit one scene at once
// without expected_revision. Edits of different elements both land; an
// update of an element the other agent deleted fails with not_found and
// leaves nothing half-applied.
func TestTwoAgentsWithoutRevisions(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.ok(t, CreateTool, `{"name":"shared","elements":[`+
		`{"type":"rectangle","id":"left","x":0,"y":0,"width":100,"height":60},`+
		`{"type":"rectangle","id":"right","x":400,"y":0,"width":100,"height":60},`+
		`{"type":"rectangle","id":"doomed","x":0,"y":300,"width":100,"height":60}]}`)
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Go(func() { e.ok(t, MoveTool, `{"name":"shared","ids":["left"],"dx":1}`) })
		wg.Go(func() { e.ok(t, MoveTool, `{"name":"shared","ids":["right"],"dy":1}`) })
	}
	wg.Wait()
	rows := e.ok(t, QueryTool, `{"name":"shared","target":{"ids":["left","right"]},"fields":["id","x","y"]}`)
	got := jsonOf(rows["rows"])
	if !strings.Contains(got, `"id":"left","x":10`) || !strings.Contains(got, `"id":"right","x":400,"y":10`) {
		t.Fatalf("both agents' moves must land: %s", got)
	}
	e.ok(t, DeleteTool, `{"name":"shared","ids":["doomed"]}`)
	before := dirHash(t, e.dir)
	eo := e.fail(t, ApplyOpsTool, `{"name":"shared","ops":[`+
		`{"tool":"move_elements","args":{"ids":["left"],"dx":5}},`+
		`{"tool":"update_elements","args":{"updates":[{"id":"doomed","patch":{"x":1}}]}}]}`, "not_found")
	if d := eo["details"].(map[string]any); d["pointer"] != "/ops/1/args/updates/0/id" {
		t.Fatalf("not_found points at %v", d["pointer"])
	}
	if dirHash(t, e.dir) != before {
		t.Fatal("a failed apply_ops wrote its first op")
	}
}

// fmtAny is compact JSON of a decoded value.
func fmtAny(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
