package tools

import "context"

// Caller is who makes a tool call, as far as the transport knows: the
// name of the credential the call came in with (a token's name) and the
// name the client gave itself (MCP's clientInfo.name, "claude-desktop").
// The credential names the caller; the client's name is only a detail
// (any client may claim any name). Either may be empty.
type Caller struct {
	Name   string
	Client string
}

// Display is how the caller is named: the credential's name. The
// client's name is not, whatever it claims; keep it beside the name.
func (c Caller) Display() string { return c.Name }

type callerKey struct{}

// WithCaller marks ctx with the caller of a tool call; transports set it
// before Registry.Call.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerOf returns the caller ctx was marked with (zero if none).
func CallerOf(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

type toolNameKey struct{}

// ToolName is the name of the tool whose handler ctx was given to
// (Registry.Call marks it), "" outside a call.
func ToolName(ctx context.Context) string {
	n, _ := ctx.Value(toolNameKey{}).(string)
	return n
}
