package excalidraw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// hostileCreate is excalidraw_scene_create's arguments with n elements,
// each of which the input schema refuses (x is a string).
func hostileCreate(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"name":"hostile","elements":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"rectangle","x":"%d","y":0}`, i)
	}
	b.WriteString(`]}`)
	return json.RawMessage(b.String())
}

// failure calls a tool over MCP and returns its error object.
func failure(t *testing.T, s *mcp.ClientSession, name string, args json.RawMessage) map[string]any {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	out := decodeToolResult(t, name, res, err)
	eo, _ := out["error"].(map[string]any)
	if out["ok"] != false || eo == nil {
		t.Fatalf("%s: want a failure, got %v", name, out)
	}
	// Every failure over HTTP names its request; the id is each call's
	// own, so it is checked here and left out of what callers compare.
	if d, ok := eo["details"].(map[string]any); ok {
		if id, _ := d["request_id"].(string); id == "" {
			t.Fatalf("%s: no request_id in the details: %v", name, eo)
		}
		delete(d, "request_id")
		if len(d) == 0 {
			delete(eo, "details")
		}
	}
	return eo
}

// TestMCPHostileCreateRefusedEarly: through a real host and the SDK
// client, a create with 100,001 elements (3.6 MB) is refused as
// too_many_elements with the limit's details by the registry's argument
// limit, before the input schema validates any element (every one of them
// is schema-invalid, and the answer is the limit's, not the schema's);
// nothing is written. The wall time of the call is logged.
func TestMCPHostileCreateRefusedEarly(t *testing.T) {
	// maxElements at its ceiling, where the plugin's configured limit and
	// the most any configuration allows agree.
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw, config: {maxElements: 100000}}\n"))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	s, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()

	args := hostileCreate(100_001)
	start := time.Now()
	eo := failure(t, s, "excalidraw_scene_create", args)
	t.Logf("MCP create of 100,001 elements (%d bytes) answered in %v: %v", len(args), time.Since(start), eo["code"])
	d, _ := eo["details"].(map[string]any)
	if eo["code"] != "too_many_elements" || d["limit"] != "maxElements" || d["max"] != 100000.0 || d["actual"] != 100001.0 {
		t.Fatalf("want too_many_elements {maxElements, 100000, 100001}, got %v", eo)
	}
	if out := callJSON(t, s, "excalidraw_scene_list", map[string]any{}); len(out["scenes"].([]any)) != 0 {
		t.Fatalf("a refused create left a scene: %v", out)
	}
}

// TestMCPCreateOverConfiguredLimitRefusedEarly: the plugin's configured
// maxElements (not only the most any configuration allows) bounds a create
// before the schema sees an element: 51 schema-invalid elements under
// maxElements 50 get the limit's answer, as an HTTP PUT would.
func TestMCPCreateOverConfiguredLimitRefusedEarly(t *testing.T) {
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw, config: {maxElements: 50}}\n"))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	s, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	eo := failure(t, s, "excalidraw_scene_create", hostileCreate(51))
	d, _ := eo["details"].(map[string]any)
	if eo["code"] != "too_many_elements" || d["limit"] != "maxElements" || d["max"] != 50.0 || d["actual"] != 51.0 {
		t.Fatalf("want too_many_elements {maxElements, 50, 51}, got %v", eo)
	}
}

// TestMCPArgumentBytesCapped: host.mcp.maxArgumentBytes bounds every tool
// call's arguments on the raw bytes (the bound stdio relies on), with
// too_large {limit: maxArgumentBytes, max, actual}.
func TestMCPArgumentBytesCapped(t *testing.T) {
	yaml := strings.Replace(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw}\n"), "host:\n", "host:\n  mcp: {maxArgumentBytes: 4096}\n", 1)
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(yaml)))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	s, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	args := json.RawMessage(`{"pad":"` + strings.Repeat("x", 5000) + `"}`)
	eo := failure(t, s, "excalidraw_scene_list", args)
	d, _ := eo["details"].(map[string]any)
	if eo["code"] != "too_large" || d["limit"] != "maxArgumentBytes" || d["max"] != 4096.0 || d["actual"] != float64(len(args)) {
		t.Fatalf("want too_large {maxArgumentBytes, 4096, %d}, got %v", len(args), eo)
	}
	if out := callJSON(t, s, "excalidraw_scene_list", map[string]any{}); out["ok"] != true {
		t.Fatalf("a small call after the refusal: %v", out)
	}
}
