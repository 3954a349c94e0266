package mcpserve

import (
	"context"
	"encoding/json"
	"github.com/dshgo/dsh/plugins/identity"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// mcpTool converts a descriptor to the SDK's tool definition. The schema
// is passed through as raw JSON so clients see exactly what the plugin
// declared.
//
// Our annotations are plain booleans. MCP's defaults for an absent
// destructiveHint and openWorldHint are true, so those are sent
// explicitly (a plugin that leaves Destructive or OpenWorld unset
// declares the tool non-destructive / closed-world), except
// destructiveHint on a read-only tool, where the spec gives it no
// meaning. The title is the tool's own (the spec's display name since
// 2025-06-18), not repeated in the annotations: every byte of tools/list
// is in every agent's context.
func mcpTool(d tools.Descriptor) *mcp.Tool {
	a := d.Annotations
	openWorld := a.OpenWorld
	ann := &mcp.ToolAnnotations{ReadOnlyHint: a.ReadOnly, IdempotentHint: a.Idempotent, OpenWorldHint: &openWorld}
	if !a.ReadOnly {
		destructive := a.Destructive
		ann.DestructiveHint = &destructive
	}
	return &mcp.Tool{
		Name:        d.Name,
		Title:       a.Title,
		Description: d.Description,
		InputSchema: d.InputSchema,
		Annotations: ann,
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
		c, who := m.caller(ctx, req)
		ctx = identity.With(tools.WithCaller(ctx, c), who)
		// The HTTP request's id (the web server set it), or a new one over
		// stdio: the call's access line, errors and journal entries name it.
		var id string
		if req != nil && req.Extra != nil && req.Extra.Header != nil {
			id = req.Extra.Header.Get(apierr.HeaderRequestID)
		}
		if id == "" {
			id = apierr.NewRequestID()
		}
		ctx = apierr.WithRequestID(ctx, id)
		return callToolResult(m.reg.Call(ctx, name, args)), nil
	}
}

// callToolResult renders a Result for MCP: its canonical JSON, encoded
// once by the registry, as the single text content, and nothing else.
//
// No structuredContent is sent. The MCP specification (2025-06-18,
// server/tools, "Structured Content") ties it to a tool's outputSchema:
// a tool with one MUST return conforming structured content and, for
// backwards compatibility, SHOULD return the same JSON serialized in a
// text block too. These tools declare no outputSchema, so the text block
// is the whole result; sending the document a second time as
// structuredContent doubled what a large read costs to encode, send and
// decode, for clients that read the text anyway. A tool that declares an
// outputSchema one day must send both, structuredContent as the bytes
// already encoded (a json.RawMessage), not a second encoding.
//
// Images a tool returned follow the text, one image content each.
func callToolResult(res tools.Result) *mcp.CallToolResult {
	content := make([]mcp.Content, 0, 1+len(res.Images))
	content = append(content, &mcp.TextContent{Text: string(res.JSON)})
	for _, im := range res.Images {
		content = append(content, &mcp.ImageContent{Data: im.Data, MIMEType: im.MIME})
	}
	return &mcp.CallToolResult{Content: content, IsError: !res.OK}
}

// caller is who sends req: the principal its HTTP session was opened
// with (or, for stdio, the one its connection's context carries: Local),
// the credential's name, and the name the client gave at initialize. A
// call that is neither acts for Nobody, which may do nothing.
func (m *Server) caller(ctx context.Context, req *mcp.CallToolRequest) (tools.Caller, identity.Principal) {
	var c tools.Caller
	who := Nobody
	if req == nil || req.Session == nil {
		return c, who
	}
	if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
		c.Client = p.ClientInfo.Name
	}
	if p, ok := m.sessions.whoOf(req.Session.ID()); ok {
		who = p
	} else if p, ok := identity.From(ctx); ok {
		who = p
	}
	c.Name = who.Name
	return c, who
}

// Nobody is who a tool call acts for when its transport named no one: no
// rights at all (fail closed).
var Nobody = identity.Principal{Kind: "none", ID: "nobody", Name: "nobody"}
