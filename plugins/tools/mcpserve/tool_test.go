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

func TestCallToolResult(t *testing.T) {
	obj := tools.Result{OK: true, JSON: []byte(`{"ok":true}`), Value: map[string]any{"ok": true}}
	res := callToolResult(obj)
	if res.IsError || res.Content[0].(*mcp.TextContent).Text != `{"ok":true}` || res.StructuredContent == nil {
		t.Fatalf("object result = %+v", res)
	}
	arr := callToolResult(tools.Result{OK: true, JSON: []byte(`[1]`), Value: []any{json.Number("1")}})
	if arr.StructuredContent != nil {
		t.Fatalf("non-object offered as structured content: %+v", arr)
	}
	fail := callToolResult(tools.Result{OK: false, JSON: []byte(`{"ok":false}`), Value: map[string]any{"ok": false}})
	if !fail.IsError {
		t.Fatal("failure not flagged")
	}
}
