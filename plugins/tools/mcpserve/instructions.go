package mcpserve

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// instructionsMiddleware fills the instructions of each initialize (and
// discover) result when the client connects, rather than once when the
// server is made: the host's own text (Options.Instructions) and then
// the plugins' (tools.Registry.AddInstructions), which come and go as
// plugins load and unload.
func (m *Server) instructionsMiddleware(fixed string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			switch r := res.(type) {
			case *mcp.InitializeResult:
				r.Instructions = joinInstructions(fixed, m.reg.Instructions())
			case *mcp.DiscoverResult:
				r.Instructions = joinInstructions(fixed, m.reg.Instructions())
			}
			return res, nil
		}
	}
}

// joinInstructions joins the non-empty texts, one paragraph each.
func joinInstructions(texts ...string) string {
	var parts []string
	for _, t := range texts {
		if t = strings.TrimSpace(t); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n\n")
}
