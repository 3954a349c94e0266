package excalidraw_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// Over real MCP: a write's lint has near-miss hints only about what it
// touched, and validate_scene, which touches nothing, has none; it says
// the leftover boundElements entries in one stale_bound_entry finding
// that counts them, and a field no element has in one missing_field
// warning with a count.
func TestLintQuietOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"quiet"}`)
	okCall(t, s, "batch_create", `{"name":"quiet","elements":[
		{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":50},
		{"type":"rectangle","id":"b","x":0,"y":100,"width":100,"height":50},
		{"type":"rectangle","id":"c","x":500,"y":0,"width":100,"height":50},
		{"type":"rectangle","id":"d","x":502,"y":100,"width":100,"height":50}]}`)

	mv := okCall(t, s, "move_elements", `{"name":"quiet","ids":["b"],"dx":2,"dy":0}`)
	lint, _ := json.Marshal(mv["lint"])
	if !strings.Contains(string(lint), `"alignment_near_miss"`) || !strings.Contains(string(lint), `"a","b"`) {
		t.Errorf("moving b 2 px off a: no near-miss hint about them: %s", lint)
	}
	if strings.Contains(string(lint), `"c","d"`) || strings.Contains(string(lint), "c,d") {
		t.Errorf("moving b: a hint about c and d, which it did not touch: %s", lint)
	}

	v := okCall(t, s, "validate_scene", `{"name":"quiet"}`)
	if got, _ := json.Marshal(v["lint"]); strings.Contains(string(got), "alignment_near_miss") {
		t.Errorf("validate_scene has near-miss hints: %s", got)
	}

	given := `{"type":"excalidraw","version":2,"elements":[
		{"id":"p","type":"rectangle","x":0,"y":0,"width":100,"height":60,"boundElements":[{"id":"gone","type":"arrow"}]},
		{"id":"q","type":"rectangle","x":300,"y":0,"width":100,"height":60,"boundElements":[{"id":"p","type":"arrow"},{"id":"lost","type":"text"}]}],"appState":{},"files":{}}`
	v = okCall(t, s, "validate_scene", `{"scene":`+given+`}`)
	said, _ := json.Marshal(v)
	if n := strings.Count(string(said), `"stale_bound_entry"`); n != 1 || strings.Contains(string(said), `"dangling_binding"`) {
		t.Errorf("the leftover entries said in %d stale_bound_entry findings, or as dangling_binding: %s", n, said)
	}
	if !strings.Contains(string(said), "3 boundElements entries on 2 elements") || !strings.Contains(string(said), "repair_scene") ||
		strings.Contains(string(said), "one_sided_binding") {
		t.Errorf("the one finding does not count the 3 entries on p and q and point at repair_scene: %s", said)
	}
	missing := 0
	for _, d := range v["diagnostics"].([]any) {
		if d := d.(map[string]any); d["code"] == "missing_field" {
			missing++
			if d["count"] != 2.0 {
				t.Errorf("missing_field without the count of both boxes: %v", d)
			}
		}
	}
	if missing != 1 {
		t.Errorf("%d missing_field warnings, want 1: %s", missing, said)
	}
}
