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
	if a.Title != "" || a.ReadOnlyHint || a.IdempotentHint || !*a.DestructiveHint || !*a.OpenWorldHint {
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

// A tool's pictures follow its text as image content, in order.
func TestCallToolResultSendsImagesAfterTheText(t *testing.T) {
	res := callToolResult(tools.Result{OK: true, JSON: []byte(`{"ok":true}`),
		Images: []tools.Image{{MIME: "image/png", Data: []byte{1}}, {MIME: "image/svg+xml", Data: []byte("<svg/>")}}})
	if len(res.Content) != 3 || res.IsError {
		t.Fatalf("%d blocks", len(res.Content))
	}
	if res.Content[0].(*mcp.TextContent).Text != `{"ok":true}` {
		t.Fatal("text is not first")
	}
	for i, want := range []string{"image/png", "image/svg+xml"} {
		im, ok := res.Content[i+1].(*mcp.ImageContent)
		if !ok || im.MIMEType != want {
			t.Fatalf("block %d is %T %v", i+1, res.Content[i+1], im)
		}
	}
}
