package excalidraw_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// historyHost is a real host with the Excalidraw plugin on a known data
// directory, an MCP session (client "test-agent") and an HTTP client.
func historyHost(t *testing.T) (*dsh.Host, *mcp.ClientSession, string) {
	t.Helper()
	data := t.TempDir()
	yaml := fmt.Sprintf("host:\n  listen: 127.0.0.1:0\n  dataDir: %s\n  log: {level: error, format: json}\n  http: {drainTimeout: 2s}\nplugins:\n  - {id: excalidraw, name: excalidraw}\n", data)
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(yaml)))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	s, _, _ := hosttest.MCP(t, h)
	return h, s, filepath.Join(data, "excalidraw", "drawings")
}

// send is an HTTP call with the host's token; it returns status and the
// decoded body.
func send(t *testing.T, h *dsh.Host, c *http.Client, method, path, body string) (int, map[string]any) {
	t.Helper()
	resp, b := dshtest.Send(t, c, method, h.URL()+path, body, "Authorization", "Bearer "+h.Token(), "Content-Type", "application/json")
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s %s: %s", method, path, b)
	}
	return resp.StatusCode, out
}

// TestEveryWriteIsJournaled writes a scene through every surface — the
// contract's tools and the engine's over MCP, the editor's save and
// forced overwrite over HTTP, a file edited outside dsh, a restore — and
// reads its history back through both surfaces: one entry per commit,
// with the right actor, name, tool and note.
func TestEveryWriteIsJournaled(t *testing.T) {
	h, s, drawings := historyHost(t)
	c := hosttest.Client(t)
	okCall(t, s, "excalidraw_scene_create", `{"name":"hist","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":80,"height":40}]}`)
	okCall(t, s, "batch_create", `{"name":"hist","elements":[{"type":"ellipse","id":"b","x":200,"y":0,"width":80,"height":40}],"options":{"note":"add b"}}`)
	okCall(t, s, "excalidraw_scene_apply", `{"name":"hist","expected_revision":2,"operations":[{"op":"update","id":"a","patch":{"x":10}}]}`)

	// The editor: a save, then a forced overwrite from a stale base.
	st, read := send(t, h, c, http.MethodGet, "/dsh-excalidraw/api/scenes/hist", "")
	if st != 200 {
		t.Fatalf("read: %d %v", st, read)
	}
	scene, _ := json.Marshal(read["scene"])
	if st, out := send(t, h, c, http.MethodPut, "/dsh-excalidraw/api/scenes/hist",
		fmt.Sprintf(`{"scene":%s,"expected_revision":3,"request_id":"tab1:1"}`, withBackground(t, scene, "#ffc9c9"))); st != 200 {
		t.Fatalf("save: %d %v", st, out)
	}
	if st, out := send(t, h, c, http.MethodPut, "/dsh-excalidraw/api/scenes/hist",
		fmt.Sprintf(`{"scene":%s,"expected_revision":1,"force":true,"request_id":"tab2:1"}`, withBackground(t, scene, "#a5d8ff"))); st != 200 {
		t.Fatalf("forced save: %d %v", st, out)
	}

	// A hand edit of the file, recorded by recovery at the next read.
	path := filepath.Join(drawings, "hist.excalidraw")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	okCall(t, s, "excalidraw_scene_read", `{"name":"hist","include":"summary"}`)

	log, size := rawCall(t, s, "board_log", `{"name":"hist"}`)
	t.Logf("board_log, %d bytes: %v", size, log)
	entries, _ := log["entries"].([]any)
	// Everything here comes with the host's own token ("local"): it names
	// the writer; the MCP client's name ("test-agent") is only a detail.
	type want struct{ actor, name, client, via, note string }
	wants := []want{ // newest first
		{"recovery", "", "", "recovery", ""},
		{"ui", "local", "", "editor", ""},
		{"ui", "local", "", "editor", ""},
		{"agent", "local", "test-agent", "excalidraw_scene_apply", ""},
		{"agent", "local", "test-agent", "batch_create", "add b"},
		{"agent", "local", "test-agent", "excalidraw_scene_create", ""},
	}
	if len(entries) != len(wants) {
		t.Fatalf("%d entries, want %d: %v", len(entries), len(wants), entries)
	}
	for i, w := range wants {
		e := entries[i].(map[string]any)
		str := func(k string) string { v, _ := e[k].(string); return v }
		if str("actor") != w.actor || str("name") != w.name || str("client") != w.client || str("via") != w.via || (w.note != "" && str("note") != w.note) {
			t.Errorf("entry %d = %v, want %+v", i, e, w)
		}
		if rev, _ := e["revision"].(float64); int(rev) != len(wants)-i {
			t.Errorf("entry %d has revision %v", i, e["revision"])
		}
	}
	if e := entries[1].(map[string]any); e["forced"] != true {
		t.Errorf("the overwrite is not marked forced: %v", e)
	}
	if e := entries[0].(map[string]any); e["restorable"] != false {
		t.Errorf("a recovery entry after a hand edit claims before-images: %v", e)
	}

	// Restore through MCP: revert the batch_create; it is journaled too.
	batch := entries[4].(map[string]any)["commit"].(string)
	env, size := rawCall(t, s, "restore", fmt.Sprintf(`{"name":"hist","from":%q,"options":{"note":"not b after all"}}`, batch))
	t.Logf("restore, %d bytes: %v", size, env)
	if d, _ := env["changed"].(map[string]any)["deleted"].([]any); len(d) != 1 || d[0] != "b" {
		t.Fatalf("revert of the create deleted %v (%v)", env["changed"], env)
	}
	st, page := send(t, h, c, http.MethodGet, "/dsh-excalidraw/api/scenes/hist/log?limit=1", "")
	top, _ := page["entries"].([]any)
	if st != 200 || len(top) != 1 {
		t.Fatalf("HTTP log: %d %v", st, page)
	}
	if e := top[0].(map[string]any); e["via"] != "restore" || e["undoes"] != batch || e["mode"] != "revert" || e["note"] != "not b after all" || e["name"] != "local" || e["client"] != "test-agent" {
		t.Fatalf("the restore's entry = %v", e)
	}

	// And the person undoes the agent's apply from the editor's route.
	apply := entries[3].(map[string]any)["commit"].(string)
	if st, out := send(t, h, c, http.MethodPost, "/dsh-excalidraw/api/scenes/hist/restore", fmt.Sprintf(`{"from":%q,"mode":"restore","ids":["a"]}`, apply)); st != 200 || out["persisted"] != true {
		t.Fatalf("restore route: %d %v", st, out)
	}
	if st, out := send(t, h, c, http.MethodPost, "/dsh-excalidraw/api/scenes/hist/restore", `{"from":"nope"}`); st != 404 {
		t.Fatalf("restore of an unknown commit: %d %v", st, out)
	}
}

// withBackground returns scene with its appState's background set.
func withBackground(t *testing.T, scene []byte, color string) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(scene, &m); err != nil {
		t.Fatal(err)
	}
	as, _ := m["appState"].(map[string]any)
	if as == nil {
		as = map[string]any{}
	}
	as["viewBackgroundColor"] = color
	m["appState"] = as
	out, _ := json.Marshal(m)
	return out
}
