package excalidraw_test

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestMCPStaleWriteRefusedBeforeArguments: over MCP, a write whose
// expected_revision is behind the board's is refused as revision_conflict
// from the board's head, before its operations are checked: a stale
// excalidraw_scene_apply (or update_elements) whose operations the schema
// would refuse gets the very error a stale call with good operations
// gets (code, message, details, retry), while the same bad operations at
// the current revision still get the schema's answer, and so does a
// stale call with a request_id (a retry the store may answer as a
// duplicate). Nothing is written.
func TestMCPStaleWriteRefusedBeforeArguments(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	callJSON(t, s, "excalidraw_scene_create", map[string]any{"name": "s", "elements": []any{
		map[string]any{"type": "rectangle", "id": "r1", "x": 0, "y": 0, "width": 100, "height": 60},
	}})
	good := []any{map[string]any{"op": "update", "id": "r1", "patch": map[string]any{"x": 10}}}
	if out := callJSON(t, s, "excalidraw_scene_apply", map[string]any{"name": "s", "expected_revision": 1, "operations": good}); out["ok"] != true {
		t.Fatalf("apply: %v", out)
	}
	bad := json.RawMessage(`[{"op":"add","element":{"type":"rectangle","x":"nope","y":0}}]`)
	apply := func(rev int, ops any, extra ...string) json.RawMessage {
		args := map[string]any{"name": "s", "expected_revision": rev, "operations": ops}
		for i := 0; i+1 < len(extra); i += 2 {
			args[extra[i]] = extra[i+1]
		}
		b, _ := json.Marshal(args)
		return b
	}

	want := failure(t, s, "excalidraw_scene_apply", apply(1, good))
	d, _ := want["details"].(map[string]any)
	if want["code"] != "revision_conflict" || d["currentRevision"] != 2.0 || d["expectedRevision"] != 1.0 || d["name"] != "s" || d["currentSha256"] == "" {
		t.Fatalf("stale apply: want revision_conflict at 2, got %v", want)
	}
	if got := failure(t, s, "excalidraw_scene_apply", apply(1, bad)); !reflect.DeepEqual(got, want) {
		t.Fatalf("stale apply with bad operations:\n got %v\nwant %v", got, want)
	}
	badUpdate := json.RawMessage(`{"name":"s","expected_revision":1,"updates":[{"id":"r1"}]}`)
	if got := failure(t, s, "update_elements", badUpdate); !reflect.DeepEqual(got, want) {
		t.Fatalf("stale update_elements with a bad update:\n got %v\nwant %v", got, want)
	}
	if got := failure(t, s, "excalidraw_scene_apply", apply(2, bad)); got["code"] == "revision_conflict" {
		t.Fatalf("bad operations at the current revision: want the schema's answer, got %v", got)
	}
	if got := failure(t, s, "excalidraw_scene_apply", apply(1, bad, "request_id", "retry-1")); got["code"] == "revision_conflict" {
		t.Fatalf("stale apply with a request id and bad operations: want the schema's answer, got %v", got)
	}
	if out := callJSON(t, s, "excalidraw_scene_read", map[string]any{"name": "s", "include": "summary"}); out["revision"] != 2.0 {
		t.Fatalf("a refused write changed the board: %v", out)
	}
}
