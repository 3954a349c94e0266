package tools

import (
	"context"
	"encoding/json"
	"testing"
)

// echoSchema accepts {"text": string, "n"?: integer} and nothing else.
const echoSchema = `{
  "type": "object",
  "properties": {
    "text": {"type": "string"},
    "n": {"type": "integer"}
  },
  "required": ["text"],
  "additionalProperties": false
}`

// echoTool returns a tool that echoes its arguments back.
func echoTool(name string) Tool {
	return Tool{
		Name:        name,
		Description: "Echo the arguments back.",
		InputSchema: json.RawMessage(echoSchema),
		Annotations: Annotations{Title: "Echo", ReadOnly: true, Idempotent: true},
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			return map[string]any{"echo": args}, nil
		},
	}
}

// mustRegister registers t or fails the test.
func mustRegister(t testing.TB, r *Registry, tool Tool) func() {
	t.Helper()
	unregister, err := r.Register(tool)
	if err != nil {
		t.Fatalf("Register(%s): %v", tool.Name, err)
	}
	return unregister
}

// errorObject extracts the "error" member of a failure result.
func errorObject(t testing.TB, res Result) map[string]any {
	t.Helper()
	if res.OK {
		t.Fatalf("expected failure, got %s", res.JSON)
	}
	obj, _ := res.Value().(map[string]any)
	eo, _ := obj["error"].(map[string]any)
	if eo == nil {
		t.Fatalf("failure without error object: %s", res.JSON)
	}
	return eo
}
