package dsh_test

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// TestExcalidrawLifecycle is the contract's lifecycle test on the real
// plugin: load it, call a tool, dispose every effect, and check that the
// tools (also in MCP tools/list), the routes and the provided service are
// gone.
func TestExcalidrawLifecycle(t *testing.T) {
	h := startHost(t, dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hostYAML(t, "  - {id: excalidraw, name: excalidraw, config: {maxElements: 500}}\n"))))
	s := scopeOf(t, h, "excalidraw")
	if err := s.AwaitActive(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	sess, listChanged, closeMCP := mcpSession(t, h)
	defer closeMCP()
	c := client(t)

	names := []string{"excalidraw_scene_list", "excalidraw_scene_read", "excalidraw_scene_create", "excalidraw_scene_apply", "excalidraw_scene_validate"}
	listed := toolNames(t, sess)
	for _, n := range names {
		if !has(listed, n) {
			t.Fatalf("MCP tools/list lacks %s: %v", n, listed)
		}
	}
	res := h.Tools.Call(testCtx(t), "excalidraw_scene_create", json.RawMessage(`{"name":"demo","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":60,"label":{"text":"A"}}]}`))
	if !res.OK || !strings.Contains(string(res.JSON), `"revision":1`) {
		t.Fatalf("create: %s", res.JSON)
	}
	out, err := sess.CallTool(testCtx(t), &mcp.CallToolParams{Name: "excalidraw_scene_read", Arguments: map[string]any{"name": "demo", "include": "summary"}})
	if err != nil || out.IsError || !strings.Contains(out.Content[0].(*mcp.TextContent).Text, `"id":"a"`) {
		t.Fatalf("read over MCP: %v %+v", err, out)
	}
	if code, body := do(t, c, http.MethodGet, h.URL()+"/dsh-excalidraw/api/scenes", bearer(h)); code != 200 || !strings.Contains(body, `"demo"`) {
		t.Fatalf("GET scenes: %d %s", code, body)
	}
	if _, ok := h.Runtime.Service(excalidraw.ServiceName); !ok {
		t.Fatal("excalidrawScenes not provided")
	}
	drainList(listChanged)

	// An editor's live event stream is open when the plugin goes: disposal
	// ends it (the route's drain does not wait for it to time out).
	req, _ := http.NewRequest(http.MethodGet, h.URL()+"/dsh-excalidraw/api/scenes/demo/events", nil)
	req.Header.Set("Authorization", "Bearer "+h.Token())
	stream, err := c.Do(req)
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("events stream: %v %v", err, stream)
	}
	defer stream.Body.Close()
	first := make([]byte, 64)
	if n, err := stream.Body.Read(first); err != nil || !strings.Contains(string(first[:n]), "event: revision") {
		t.Fatalf("first event: %q %v", first[:n], err)
	}
	streamEnded := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, stream.Body); streamEnded <- err }()

	if err := h.UnloadPlugin(testCtx(t), "excalidraw"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-streamEnded:
		if err != nil {
			t.Fatalf("stream ended with %v, want a clean end", err)
		}
	case <-testCtx(t).Done():
		t.Fatal("the events stream outlived the plugin")
	}
	for _, n := range names {
		if _, ok := h.Tools.Lookup(n); ok {
			t.Fatalf("%s survived dispose", n)
		}
	}
	<-listChanged
	listed = toolNames(t, sess)
	for _, n := range names {
		if has(listed, n) {
			t.Fatalf("MCP tools/list still has %s", n)
		}
	}
	for _, path := range []string{"/dsh-excalidraw/api/scenes", "/dsh-excalidraw/api/health"} {
		if code, _ := do(t, c, http.MethodGet, h.URL()+path, bearer(h)); code != http.StatusNotFound {
			t.Fatalf("%s after dispose: %d", path, code)
		}
	}
	if _, ok := h.Runtime.Service(excalidraw.ServiceName); ok {
		t.Fatal("excalidrawScenes survived dispose")
	}
	if s.State() != app.StateDisposed {
		t.Fatalf("scope %s", s.State())
	}
}

// A headless host keeps the store and tools and serves no HTTP.
func TestExcalidrawHeadless(t *testing.T) {
	h := startHost(t, dsh.Headless(), dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hostYAML(t, "  - {id: excalidraw, name: excalidraw}\n"))))
	if err := scopeOf(t, h, "excalidraw").AwaitActive(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if res := h.Tools.Call(testCtx(t), "excalidraw_scene_list", nil); !res.OK {
		t.Fatalf("list: %s", res.JSON)
	}
	for _, s := range h.Runtime.Scopes() {
		if s.Name == "excalidraw/inject" && s.State != app.StatePending {
			t.Fatalf("web part is %s in a headless host", s.State)
		}
	}
}

// A config change in the YAML file takes effect without restarting the
// host: the entry's scope restarts with the new limits.
func TestExcalidrawConfigReloadsLive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dsh.yaml")
	base := hostYAML(t, "")
	writeFile(t, path, base+"  - {id: excalidraw, name: excalidraw, config: {maxElements: 2}}\n")
	h := startHost(t, dsh.WithConfigFile(path), dsh.WithPlugins(excalidraw.Plugin))
	if err := scopeOf(t, h, "excalidraw").AwaitActive(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	three := json.RawMessage(`{"name":"s","elements":[{"type":"rectangle","x":0,"y":0},{"type":"ellipse","x":200,"y":0},{"type":"diamond","x":400,"y":0}]}`)
	if res := h.Tools.Call(testCtx(t), "excalidraw_scene_create", three); res.OK || !strings.Contains(string(res.JSON), "too_many_elements") {
		t.Fatalf("over the limit: %s", res.JSON)
	}
	writeFile(t, path, base+"  - {id: excalidraw, name: excalidraw, config: {maxElements: 100}}\n")
	eventually(t, "the new limit", func() bool {
		res := h.Tools.Call(testCtx(t), "excalidraw_scene_create", three)
		return res.OK
	})
}
