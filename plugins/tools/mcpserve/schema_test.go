package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/plugins/tools"
)

// registeredSchema is the schema the registry keeps for raw, or false
// when it refuses raw.
func registeredSchema(raw string) (json.RawMessage, bool) {
	reg := tools.NewRegistry(nil)
	_, err := reg.Register(tools.Tool{
		Name: "t", Description: "d", InputSchema: json.RawMessage(raw),
		Handler: func(context.Context, json.RawMessage) (any, error) { return nil, nil },
	})
	if err != nil {
		return nil, false
	}
	d, _ := reg.Lookup("t")
	return d.InputSchema, true
}

// sdkAddTool gives schema to the SDK's low-level AddTool, which panics on
// schemas it dislikes, and reports the panic.
func sdkAddTool(srv *mcp.Server, name string, schema json.RawMessage) (panicked any) {
	defer func() { panicked = recover() }()
	srv.AddTool(&mcp.Tool{Name: name, InputSchema: schema}, nil)
	return nil
}

// acceptedByRegistry are schemas near the edges of what the registry and
// the SDK accept.
var acceptedByRegistry = []string{
	`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`,
	`{"type":"object","additionalProperties":false}`,
	`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","x-mcp-header":"Region"}}}`,
	`{"type":"object","additionalProperties":false,"properties":{"a":{"type":["string","null"]},"b":{"type":"string","x-mcp-header":"B"}}}`,
	`{"type":"object","additionalProperties":false,"properties":{"a":{"maximum":123456789012345678901234567890}}}`,
	`{"type":"object","additionalProperties":false,"properties":{"a":{"maximum":1e400}}}`,
	`{"type":"object","additionalProperties":false,"description":"bad utf8 \xff here"}`,
	`{"type":"object","type":"object","additionalProperties":false}`,
	`{"type":"string","type":"object","additionalProperties":false}`,
	`{"type":"object","additionalProperties":false,"properties":{"a":true,"b":false}}`,
	`{"type":"object","additionalProperties":false,"$defs":{"a":{"$ref":"#/$defs/a"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`,
	`{"type":"object","additionalProperties":false,"properties":{"a":{"pattern":"\\p{L"}}}`,
}

// TestAcceptedSchemasDoNotPanicSDK feeds every schema the registry accepts
// into the SDK's AddTool, so that mirroring a registered tool never relies
// on addTool's recover.
func TestAcceptedSchemasDoNotPanicSDK(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "probe"}, nil)
	for i, raw := range acceptedByRegistry {
		schema, ok := registeredSchema(raw)
		if !ok {
			continue
		}
		if p := sdkAddTool(srv, fmt.Sprintf("t%d", i), schema); p != nil {
			t.Errorf("SDK panicked on accepted schema %s: %v", raw, p)
		}
	}
}

// FuzzAcceptedSchemaAddTool checks that every schema the registry accepts
// is accepted by the SDK's AddTool too.
func FuzzAcceptedSchemaAddTool(f *testing.F) {
	for _, raw := range acceptedByRegistry {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		schema, ok := registeredSchema(raw)
		if !ok {
			return
		}
		if p := sdkAddTool(mcp.NewServer(&mcp.Implementation{Name: "fuzz"}, nil), "fuzz", schema); p != nil {
			t.Fatalf("SDK panicked on accepted schema %q: %v", raw, p)
		}
	})
}
