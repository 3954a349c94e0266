package tools

import (
	"context"
	"encoding/json"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// TestAccessLine: every call logs one "tool call" line with the request
// id, the principal's kind and name, the tool, the board its
// BoardArgument names, the outcome and the latency; a failure's details
// carry the request id beside the error's own.
func TestAccessLine(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	r := NewRegistry(zap.New(core))
	tool := echoTool("echo")
	tool.InputSchema = json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"text":{"type":"string"}},"additionalProperties":false}`)
	tool.BoardArgument = "name"
	tool.Handler = func(_ context.Context, args json.RawMessage) (any, error) {
		var a struct{ Text string }
		_ = json.Unmarshal(args, &a)
		if a.Text == "no" {
			return nil, Errorf("refused", "no").WithDetails(map[string]any{"why": "asked"})
		}
		return map[string]any{}, nil
	}
	mustRegister(t, r, tool)
	ctx := identity.With(apierr.WithRequestID(context.Background(), "req-7"), identity.Principal{Kind: identity.KindToken, ID: "tok_1", Name: "claude"})

	if res := r.Call(ctx, "echo", json.RawMessage(`{"text":"a \"name\": here","name":"plans"}`)); !res.OK {
		t.Fatalf("call: %s", res.JSON)
	}
	refused := r.Call(ctx, "echo", json.RawMessage(`{"name":"plans","text":"no"}`))
	if d, _ := errorObject(t, refused)["details"].(map[string]any); d["request_id"] != "req-7" || d["why"] != "asked" {
		t.Fatalf("details: %s", refused.JSON)
	}
	unknown := r.Call(context.Background(), "nope", nil)
	if _, ok := errorObject(t, unknown)["details"]; ok {
		t.Fatalf("a call without a request id got details: %s", unknown.JSON)
	}

	lines := logs.FilterMessage("tool call").AllUntimed()
	if len(lines) != 3 {
		t.Fatalf("%d access lines", len(lines))
	}
	for i, want := range []map[string]any{
		{"request_id": "req-7", "principal_kind": "token", "principal": "claude", "tool": "echo", "board": "plans", "outcome": "ok"},
		{"request_id": "req-7", "principal_kind": "token", "principal": "claude", "tool": "echo", "board": "plans", "outcome": "refused"},
		{"request_id": "", "tool": "nope", "outcome": CodeUnknownTool},
	} {
		f := lines[i].ContextMap()
		for k, v := range want {
			if f[k] != v {
				t.Errorf("line %d: %s = %v, want %v (%v)", i, k, f[k], v, f)
			}
		}
		if _, ok := f["latency"]; !ok {
			t.Errorf("line %d has no latency: %v", i, f)
		}
		if _, ok := f["board"]; !ok && i < 2 {
			t.Errorf("line %d has no board", i)
		}
	}
}

// TestTopString: the board is read from the top level only, escapes
// decoded, and nothing when the member is absent or not a string.
func TestTopString(t *testing.T) {
	for raw, want := range map[string]string{
		`{"name":"a"}`:                        "a",
		`{"x":{"name":"inner"},"name":"top"}`: "top",
		`{"n\u0061me":"esc\"aped"}`:           `esc"aped`,
		`{"name":3}`:                          "",
		`{"x":[1,{"name":"no"}]}`:             "",
		`{}`:                                  "",
		`[]`:                                  "",
	} {
		got, ok := topString([]byte(raw), "name")
		if got != want || ok != (want != "") {
			t.Errorf("%s: %q %v, want %q", raw, got, ok, want)
		}
	}
}
