package tools

import (
	"context"
	"encoding/json"
	"testing"
)

// TestNoArguments: a call that gives no arguments (blank, null or an
// empty object) reaches the handler as {} when the schema accepts that,
// and is refused as before when it does not (echo requires text).
func TestNoArguments(t *testing.T) {
	r := NewRegistry(nil)
	var got []string
	mustRegister(t, r, Tool{
		Name: "bare", Description: "Take nothing.", InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{}}`),
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			got = append(got, string(args))
			args = append(args[:0], 'x') // the handler's own copy
			return struct{}{}, nil
		},
	})
	mustRegister(t, r, echoTool("echo"))
	for _, raw := range []string{"", " ", "null", "{}", " { \n } "} {
		if res := r.Call(context.Background(), "bare", json.RawMessage(raw)); !res.OK {
			t.Fatalf("bare %q: %s", raw, res.JSON)
		}
		if eo := errorObject(t, r.Call(context.Background(), "echo", json.RawMessage(raw))); eo["code"] != CodeInvalidArguments {
			t.Fatalf("echo %q: %v", raw, eo)
		}
	}
	if res := r.Call(context.Background(), "bare", json.RawMessage(`{"x":1}`)); res.OK {
		t.Fatalf("bare with a member: %s", res.JSON)
	}
	for _, a := range got {
		if a != "{}" {
			t.Fatalf("handler got %q, want {} each time (all: %q)", a, got)
		}
	}
}
