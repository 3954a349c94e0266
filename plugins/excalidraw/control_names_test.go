package excalidraw_test

import (
	"fmt"
	"maps"
	"net/http"
	"testing"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// TestNamesWithControlCharactersRefused: a name with a control character
// (NUL, ESC, a line break, a bidirectional override) is invalid_name on
// every surface of a running host — connect tokens, boards, folders and
// scenes, over HTTP and over MCP — and changes nothing.
func TestNamesWithControlCharactersRefused(t *testing.T) {
	data := t.TempDir()
	yaml := fmt.Sprintf("host:\n  listen: 127.0.0.1:0\n  dataDir: %s\n  owner: olga\n  log: {level: error, format: json}\n  http: {drainTimeout: 2s}\nplugins:\n  - {id: excalidraw, name: excalidraw}\n", data)
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(yaml)))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	api := apiClient{t: t, c: hosttest.Client(t), base: h.URL() + "/dsh-excalidraw/api", token: h.Token()}
	if st, out := api.call(http.MethodPost, "/boards", map[string]any{"name": "plan"}); st != http.StatusCreated {
		t.Fatalf("create plan: %d %v", st, out)
	}
	sess, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()

	before := snapshotDir(t, data)
	for _, bad := range []string{"a\x00b", "bot\x1b[31m", "two\nlines", "\ttab", "evil\u202egnp"} {
		for _, c := range []struct {
			path string
			body map[string]any
		}{
			{"/mcp/tokens", map[string]any{"name": bad, "boards": []string{"plan"}, "role": "viewer"}},
			{"/folders", map[string]any{"name": bad}},
			{"/boards", map[string]any{"name": bad}},
			{"/scenes", map[string]any{"name": bad}},
		} {
			st, out := api.with(t).call(http.MethodPost, c.path, c.body)
			if st != http.StatusBadRequest || errorCode(out) != "invalid_name" {
				t.Errorf("POST %s %q: %d %v, want 400 invalid_name", c.path, bad, st, out)
			}
		}
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"create_folder", map[string]any{"name": bad}},
			{"create_board", map[string]any{"name": bad}},
			{"excalidraw_scene_create", map[string]any{"name": bad}},
		} {
			if out := callJSON(t, sess, c.tool, c.args); errorCode(out) != "invalid_name" {
				t.Errorf("%s %q: %v, want invalid_name", c.tool, bad, out)
			}
		}
	}
	if after := snapshotDir(t, data); !maps.Equal(before, after) {
		t.Errorf("refused names changed the data directory:\n before %v\n after  %v", before, after)
	}
}
