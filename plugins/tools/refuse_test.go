package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// TestRefuseRunsBeforeTheSchema: a tool's Refuse sees the raw arguments
// after its limits and before the schema: its error is the call's answer
// (as a handler's would be, with its code), even for arguments the schema
// refuses, and the handler does not run; nil, or a panic in Refuse, leaves
// the call to the schema and the handler as before.
func TestRefuseRunsBeforeTheSchema(t *testing.T) {
	r := NewRegistry(nil)
	tool := echoTool("guarded")
	var handled int
	tool.Handler = func(_ context.Context, args json.RawMessage) (any, error) {
		handled++
		return map[string]any{"echo": args}, nil
	}
	var seen string
	tool.Refuse = func(ctx context.Context, args json.RawMessage) error {
		seen = ToolName(ctx)
		var a struct{ Text any }
		_ = json.Unmarshal(args, &a)
		switch a.Text {
		case "stale":
			return Errorf("revision_conflict", "behind").WithDetails(map[string]any{"current": 2})
		case "boom":
			panic("refuse is buggy")
		}
		return nil
	}
	mustRegister(t, r, tool)
	ctx := context.Background()

	// Refused although the schema would refuse n as well.
	eo := errorObject(t, r.Call(ctx, "guarded", json.RawMessage(`{"text":"stale","n":"x"}`)))
	if eo["code"] != "revision_conflict" || eo["message"] != "behind" || fmt.Sprint(eo["details"].(map[string]any)["current"]) != "2" {
		t.Fatalf("refused call: %v", eo)
	}
	if seen != "guarded" || handled != 0 {
		t.Fatalf("Refuse saw tool %q, handler ran %d times", seen, handled)
	}
	// Let through: the schema still refuses what it refused.
	if eo := errorObject(t, r.Call(ctx, "guarded", json.RawMessage(`{"text":"ok","n":"x"}`))); eo["code"] != CodeInvalidArguments {
		t.Fatalf("let through, bad n: %v", eo)
	}
	if res := r.Call(ctx, "guarded", json.RawMessage(`{"text":"ok"}`)); !res.OK || handled != 1 {
		t.Fatalf("let through: %s (handled %d)", res.JSON, handled)
	}
	// A panicking Refuse is a bug in it: the call goes on.
	if res := r.Call(ctx, "guarded", json.RawMessage(`{"text":"boom"}`)); !res.OK || handled != 2 {
		t.Fatalf("after a panicking Refuse: %s (handled %d)", res.JSON, handled)
	}
}
