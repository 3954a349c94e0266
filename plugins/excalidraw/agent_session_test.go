package excalidraw_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// callJSON calls a tool over MCP and decodes its canonical JSON result.
func callJSON(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	return decodeToolResult(t, name, res, err)
}

// decodeToolResult checks a tool call's outcome and decodes its JSON text,
// which must agree with IsError.
func decodeToolResult(t *testing.T, name string, res *mcp.CallToolResult, err error) map[string]any {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if (out["ok"] == true) == res.IsError {
		t.Fatalf("%s: ok=%v but IsError=%v", name, out["ok"], res.IsError)
	}
	return out
}

// TestAgentSession is a whole agent session over real HTTP with the
// official MCP SDK client: list → create with bound arrows → read summary
// → apply → a conflicting apply → a retry after a lost response.
func TestAgentSession(t *testing.T) {
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw}\n"))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	s, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()

	if out := callJSON(t, s, "excalidraw_scene_list", map[string]any{}); out["ok"] != true || len(out["scenes"].([]any)) != 0 {
		t.Fatalf("list: %v", out)
	}
	created := callJSON(t, s, "excalidraw_scene_create", map[string]any{
		"name": "flow",
		"elements": []any{
			map[string]any{"type": "rectangle", "id": "api", "x": 0, "y": 0, "width": 160, "height": 80, "label": map[string]any{"text": "API"}},
			map[string]any{"type": "ellipse", "id": "db", "x": 400, "y": 0, "width": 120, "height": 80, "label": map[string]any{"text": "DB"}},
			map[string]any{"type": "arrow", "id": "q", "startElementId": "api", "endElementId": "db"},
		},
		"request_id": "create-1",
	})
	if created["ok"] != true || created["revision"] != 1.0 || created["verified"] != true {
		t.Fatalf("create: %v", created)
	}
	summary := callJSON(t, s, "excalidraw_scene_read", map[string]any{"name": "flow", "include": "summary"})
	if summary["revision"] != 1.0 {
		t.Fatalf("read: %v", summary)
	}
	ids := map[string]bool{}
	for _, e := range summary["summary"].(map[string]any)["elements"].([]any) {
		ids[e.(map[string]any)["id"].(string)] = true
	}
	for _, id := range []string{"api", "db", "q"} {
		if !ids[id] {
			t.Fatalf("summary lacks %s: %v", id, summary)
		}
	}

	apply := map[string]any{
		"name": "flow", "expected_revision": 1, "request_id": "apply-1",
		"operations": []any{
			map[string]any{"op": "update", "id": "db", "patch": map[string]any{"x": 500}},
			map[string]any{"op": "add", "element": map[string]any{"type": "text", "id": "note", "x": 0, "y": 200, "text": "reads go to the replica"}},
		},
	}
	applied := callJSON(t, s, "excalidraw_scene_apply", apply)
	if applied["ok"] != true || applied["revision"] != 2.0 || applied["duplicate"] != false {
		t.Fatalf("apply: %v", applied)
	}

	// Another agent still holding revision 1 conflicts, with the details
	// it needs to recover.
	stale := callJSON(t, s, "excalidraw_scene_apply", map[string]any{
		"name": "flow", "expected_revision": 1,
		"operations": []any{map[string]any{"op": "delete", "id": "q"}},
	})
	errObj, _ := stale["error"].(map[string]any)
	if stale["ok"] != false || errObj["code"] != "revision_conflict" {
		t.Fatalf("stale apply: %v", stale)
	}
	if d, _ := errObj["details"].(map[string]any); d["currentRevision"] != 2.0 || d["expectedRevision"] != 1.0 {
		t.Fatalf("conflict details: %v", errObj)
	}

	// The first apply's response was "lost": the agent retries it as is.
	retry := callJSON(t, s, "excalidraw_scene_apply", apply)
	if retry["ok"] != true || retry["duplicate"] != true || retry["revision"] != 2.0 || retry["sha256"] != applied["sha256"] {
		t.Fatalf("retry: %v", retry)
	}
	if final := callJSON(t, s, "excalidraw_scene_read", map[string]any{"name": "flow", "include": "summary"}); final["revision"] != 2.0 {
		t.Fatalf("the retry wrote again: %v", final)
	}
}
