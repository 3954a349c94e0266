package tools

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkCall measures one full call of a small tool: argument decoding
// and schema validation, the handler, and canonical JSON of the result.
func BenchmarkCall(b *testing.B) {
	r := NewRegistry(nil)
	mustRegister(b, r, Tool{
		Name:        "add",
		Description: "Add two integers.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`),
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			var in struct{ A, B int }
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return map[string]int{"sum": in.A + in.B}, nil
		},
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
