package tools

import (
	"context"
	"encoding/json"
	"testing"
)

func TestCallerRidesTheContext(t *testing.T) {
	if got := CallerOf(context.Background()); got != (Caller{}) {
		t.Fatalf("unmarked context has caller %+v", got)
	}
	ctx := WithCaller(context.Background(), Caller{Name: "laptop", Client: "claude-desktop"})
	if got := CallerOf(ctx); got.Name != "laptop" || got.Client != "claude-desktop" {
		t.Fatalf("caller = %+v", got)
	}
	// The credential names the caller, not the name the client claims.
	if got := CallerOf(ctx).Display(); got != "laptop" {
		t.Fatalf("display = %q, want the credential's name", got)
	}
}

func TestHandlersKnowTheirToolName(t *testing.T) {
	r := NewRegistry(nil)
	var got string
	if _, err := r.Register(Tool{Name: "probe", Description: "d", InputSchema: []byte(`{"type":"object","additionalProperties":false}`),
		Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			got = ToolName(ctx)
			return map[string]any{}, nil
		}}); err != nil {
		t.Fatal(err)
	}
	if res := r.Call(context.Background(), "probe", []byte(`{}`)); !res.OK || got != "probe" {
		t.Fatalf("ok=%v, tool name %q", res.OK, got)
	}
	if ToolName(context.Background()) != "" {
		t.Fatal("a context outside a call names a tool")
	}
}
