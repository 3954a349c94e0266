package excalidraw_test

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// TestExcalidrawLifecycle is the contract's lifecycle test on the real
// plugin: load it, call a tool, dispose every effect, and check that the
// tools (also in MCP tools/list), the routes and the provided service are
// gone.
func TestExcalidrawLifecycle(t *testing.T) {
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw, config: {maxElements: 500}}\n"))))
	s := hosttest.Scope(t, h, "excalidraw")
	if err := s.AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	sess, listChanged, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	c := hosttest.Client(t)

	names := []string{"excalidraw_scene_list", "excalidraw_scene_read", "excalidraw_scene_create", "excalidraw_scene_apply", "excalidraw_scene_validate"}
	listed := hosttest.ToolNames(t, sess)
	for _, n := range names {
		if !slices.Contains(listed, n) {
			t.Fatalf("MCP tools/list lacks %s: %v", n, listed)
		}
	}
	res := h.Tools.Call(hosttest.Context(t), "excalidraw_scene_create", json.RawMessage(`{"name":"demo","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":60,"label":{"text":"A"}}]}`))
	if !res.OK || !strings.Contains(string(res.JSON), `"revision":1`) {
		t.Fatalf("create: %s", res.JSON)
	}
	out, err := sess.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: "excalidraw_scene_read", Arguments: map[string]any{"name": "demo", "include": "summary"}})
	if err != nil || out.IsError || !strings.Contains(out.Content[0].(*mcp.TextContent).Text, `"id":"a"`) {
		t.Fatalf("read over MCP: %v %+v", err, out)
	}
	if code, body := hosttest.Do(t, c, http.MethodGet, h.URL()+"/dsh-excalidraw/api/scenes", hosttest.Bearer(h)); code != 200 || !strings.Contains(body, `"demo"`) {
		t.Fatalf("GET scenes: %d %s", code, body)
	}
	if _, ok := h.Runtime.Service(excalidraw.ServiceName); !ok {
		t.Fatal("excalidrawScenes not provided")
	}
	hosttest.Drain(listChanged)

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

	if err := h.UnloadPlugin(hosttest.Context(t), "excalidraw"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-streamEnded:
		if err != nil {
			t.Fatalf("stream ended with %v, want a clean end", err)
		}
	case <-hosttest.Context(t).Done():
		t.Fatal("the events stream outlived the plugin")
	}
	for _, n := range names {
		if _, ok := h.Tools.Lookup(n); ok {
			t.Fatalf("%s survived dispose", n)
		}
	}
	<-listChanged
	listed = hosttest.ToolNames(t, sess)
	for _, n := range names {
		if slices.Contains(listed, n) {
			t.Fatalf("MCP tools/list still has %s", n)
		}
	}
	for _, path := range []string{"/dsh-excalidraw/api/scenes", "/dsh-excalidraw/api/health"} {
		if code, _ := hosttest.Do(t, c, http.MethodGet, h.URL()+path, hosttest.Bearer(h)); code != http.StatusNotFound {
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
	h := hosttest.New(t, dsh.Headless(), dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw}\n"))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	if res := h.Tools.Call(hosttest.Context(t), "excalidraw_scene_list", nil); !res.OK {
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
	base := hosttest.YAML(t, "")
	hosttest.WriteFile(t, path, base+"  - {id: excalidraw, name: excalidraw, config: {maxElements: 2}}\n")
	h := hosttest.New(t, dsh.WithConfigFile(path), dsh.WithPlugins(excalidraw.Plugin))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	three := json.RawMessage(`{"name":"s","elements":[{"type":"rectangle","x":0,"y":0},{"type":"ellipse","x":200,"y":0},{"type":"diamond","x":400,"y":0}]}`)
	if res := h.Tools.Call(hosttest.Context(t), "excalidraw_scene_create", three); res.OK || !strings.Contains(string(res.JSON), "too_many_elements") {
		t.Fatalf("over the limit: %s", res.JSON)
	}
	hosttest.WriteFile(t, path, base+"  - {id: excalidraw, name: excalidraw, config: {maxElements: 100}}\n")
	hosttest.Eventually(t, "the new limit", func() bool {
		res := h.Tools.Call(hosttest.Context(t), "excalidraw_scene_create", three)
		return res.OK
	})
}
