package excalidraw_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// TestMCPInstructionsPointAtReadMe: an agent connecting over real HTTP
// MCP is told, in initialize's instructions, to call read_me first; the
// text is short (it sits in every session's context).
func TestMCPInstructionsPointAtReadMe(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	got := s.InitializeResult().Instructions
	if !strings.Contains(got, "read_me") {
		t.Fatalf("instructions do not point at read_me: %q", got)
	}
	if len(got) > 600 {
		t.Errorf("instructions are %d bytes; keep them under 600", len(got))
	}
}

// TestMCPOperatorToolSet: host.mcp.tools narrows what agents see and may
// call; the chosen tools work as before.
func TestMCPOperatorToolSet(t *testing.T) {
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(hosttest.ConfigYAML(t.TempDir(),
		"  mcp: {tools: [\"excalidraw_scene_*\", read_me]}\n", "  - {id: excalidraw, name: excalidraw}\n"))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	s, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	names := hosttest.ToolNames(t, s)
	want := []string{"excalidraw_scene_apply", "excalidraw_scene_create", "excalidraw_scene_list", "excalidraw_scene_read", "excalidraw_scene_validate", "read_me"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}
	res, err := s.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: "batch_create", Arguments: json.RawMessage(`{"name":"a","elements":[]}`)})
	if err == nil && !res.IsError {
		t.Fatalf("batch_create, outside the set, was called: %+v", res)
	}
	res, err = s.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: "excalidraw_scene_create", Arguments: json.RawMessage(`{"name":"a"}`)})
	if err != nil || res.IsError {
		t.Fatalf("excalidraw_scene_create in the set: %v %+v", err, res)
	}
}
