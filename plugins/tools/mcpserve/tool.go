package mcpserve

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/plugins/tools"
)

// mcpTool converts a descriptor to the SDK's tool definition. The schema
// is passed through as raw JSON so clients see exactly what the plugin
// declared.
//
// Our annotations are plain booleans, so every hint is sent explicitly.
// Note that MCP's defaults for an absent destructiveHint and openWorldHint
// are true; a plugin that leaves Destructive or OpenWorld unset therefore
// declares the tool non-destructive / closed-world.
func mcpTool(d tools.Descriptor) *mcp.Tool {
	a := d.Annotations
	destructive, openWorld := a.Destructive, a.OpenWorld
	return &mcp.Tool{
		Name:        d.Name,
		Title:       a.Title,
		Description: d.Description,
		InputSchema: d.InputSchema,
		Annotations: &mcp.ToolAnnotations{
			Title:           a.Title,
			ReadOnlyHint:    a.ReadOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  a.Idempotent,
			OpenWorldHint:   &openWorld,
		},
	}
}

// toolHandler routes an MCP tools/call to the registry. It never returns a
// Go error: tool failures belong in the result (IsError) where the model
// can see and react to them, not in a JSON-RPC error.
func (m *Server) toolHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args json.RawMessage
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		ctx, cancel := m.withBase(ctx)
		defer cancel()
		ctx = tools.WithCaller(ctx, m.caller(req))
		return callToolResult(m.reg.Call(ctx, name, args)), nil
	}
}

// callToolResult renders a Result for MCP: the canonical JSON as the single
// text content (what most models read) and, for objects, the decoded
// document as structured content (what programmatic clients read).
func callToolResult(res tools.Result) *mcp.CallToolResult {
	out := &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: string(res.JSON)}},
		IsError: !res.OK,
	}
	// Structured content is an object in every protocol version before
	// 2026-07-28, so only objects are offered there.
	if obj, ok := res.Value.(map[string]any); ok {
		out.StructuredContent = obj
	}
	return out
}

// caller is who sends req: its HTTP session's credential name, and the
// name the client gave at initialize.
func (m *Server) caller(req *mcp.CallToolRequest) tools.Caller {
	var c tools.Caller
	if req == nil || req.Session == nil {
		return c
	}
	if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
		c.Client = p.ClientInfo.Name
	}
	c.Name = m.sessions.nameOf(req.Session.ID())
	return c
}
