package mcpserve

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/plugins/tools"
)

func TestMCPToolMapsAnnotations(t *testing.T) {
	d := tools.Descriptor{
		Name:        "rm",
		Description: "Remove a file.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Annotations: tools.Annotations{Title: "Remove", Destructive: true, OpenWorld: true},
	}
	tool := mcpTool(d)
	if tool.Name != "rm" || tool.Title != "Remove" || tool.Description != "Remove a file." {
		t.Fatalf("tool = %+v", tool)
	}
	if raw, ok := tool.InputSchema.(json.RawMessage); !ok || string(raw) != string(d.InputSchema) {
		t.Fatalf("schema = %#v", tool.InputSchema)
	}
	a := tool.Annotations
	if a.Title != "Remove" || a.ReadOnlyHint || a.IdempotentHint || !*a.DestructiveHint || !*a.OpenWorldHint {
		t.Fatalf("annotations = %+v", a)
	}
	// Unset booleans are sent explicitly as false, not omitted.
	plain := mcpTool(tools.Descriptor{Name: "p", InputSchema: d.InputSchema}).Annotations
	out, _ := json.Marshal(plain)
	if string(out) != `{"destructiveHint":false,"idempotentHint":false,"openWorldHint":false,"readOnlyHint":false}` {
		t.Fatalf("wire annotations = %s", out)
	}
}

// A result is its canonical JSON as the one text content; no tool has an
// outputSchema, so none gets structured content.
func TestCallToolResult(t *testing.T) {
	for _, tc := range []struct {
		res  tools.Result
		text string
	}{
		{tools.Result{OK: true, JSON: []byte(`{"ok":true}`)}, `{"ok":true}`},
		{tools.Result{OK: true, JSON: []byte(`[1]`)}, `[1]`},
		{tools.Result{OK: false, JSON: []byte(`{"ok":false}`)}, `{"ok":false}`},
	} {
		res := callToolResult(tc.res)
		if res.IsError == tc.res.OK || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != tc.text {
			t.Fatalf("%s rendered as %+v", tc.res.JSON, res)
		}
		if res.StructuredContent != nil {
			t.Fatalf("%s offered as structured content: %+v", tc.res.JSON, res)
		}
	}
}
