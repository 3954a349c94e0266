package tools

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkCall measures one full call of a small tool: argument decoding
// and schema validation, the typed handler's decoding, the handler, and
// canonical JSON of the result.
func BenchmarkCall(b *testing.B) {
	r := NewRegistry(nil)
	mustRegister(b, r, Tool{
		Name:        "add",
		Description: "Add two integers.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`),
		Handler: Typed(func(_ context.Context, in struct {
			A int `json:"a"`
			B int `json:"b"`
		}) (map[string]int, error) {
			return map[string]int{"sum": in.A + in.B}, nil
		}),
	})
	args := json.RawMessage(`{"a":2,"b":40}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if res := r.Call(ctx, "add", args); !res.OK {
			b.Fatalf("call failed: %s", res.JSON)
		}
	}
}
