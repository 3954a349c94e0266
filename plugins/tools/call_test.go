package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

func TestCallSuccessAddsOKAndIsCanonical(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, Tool{
		Name:        "info",
		Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return map[string]any{"zeta": 1, "alpha": map[string]any{"y": "<&>", "b": []int{2, 1}}}, nil
		},
	})
	res := r.Call(context.Background(), "info", nil)
	want := `{"alpha":{"b":[2,1],"y":"<&>"},"ok":true,"zeta":1}`
	if !res.OK || string(res.JSON) != want {
		t.Fatalf("got OK=%v %s\nwant %s", res.OK, res.JSON, want)
	}
	obj := res.Value().(map[string]any)
	if obj["ok"] != true || obj["zeta"] != json.Number("1") {
		t.Fatalf("Value = %#v", res.Value())
	}
}

func TestCallArgumentsReachHandlerCanonically(t *testing.T) {
	r := NewRegistry(nil)
	var got string
	tool := echoTool("echo")
	tool.Handler = func(_ context.Context, args json.RawMessage) (any, error) {
		got = string(args)
		return nil, nil
	}
	mustRegister(t, r, tool)
	res := r.Call(context.Background(), "echo", json.RawMessage(` {"n": 12345678901234567890, "text":"a<b"} `))
	if !res.OK || string(res.JSON) != `{"ok":true}` {
		t.Fatalf("result %s", res.JSON)
	}
	if got != `{"n":12345678901234567890,"text":"a<b"}` {
		t.Fatalf("handler saw %s", got)
	}
}

func TestCallValidatesEveryCall(t *testing.T) {
	r := NewRegistry(nil)
	calls := 0
	tool := echoTool("echo")
	tool.Handler = func(context.Context, json.RawMessage) (any, error) { calls++; return nil, nil }
	mustRegister(t, r, tool)
	ctx := context.Background()
	for i := range 3 {
		if res := r.Call(ctx, "echo", json.RawMessage(`{"text":"ok"}`)); !res.OK {
			t.Fatalf("valid call %d failed: %s", i, res.JSON)
		}
		if res := r.Call(ctx, "echo", json.RawMessage(`{"text":"ok","extra":1}`)); res.OK {
			t.Fatalf("invalid call %d succeeded", i)
		}
	}
	if calls != 3 {
		t.Fatalf("handler ran %d times, want 3", calls)
	}
}

func TestCallRejectsExtraProperty(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, echoTool("echo"))
	res := r.Call(context.Background(), "echo", json.RawMessage(`{"text":"hi","extra":true}`))
	eo := errorObject(t, res)
	if eo["code"] != CodeInvalidArguments {
		t.Fatalf("code = %v", eo["code"])
	}
	problems := problemsOf(t, eo)
	if len(problems) != 1 || problems[0]["pointer"] != "" ||
		!strings.HasSuffix(problems[0]["keyword"].(string), "/additionalProperties") ||
		!strings.Contains(problems[0]["message"].(string), "extra") {
		t.Fatalf("problems = %v", problems)
	}
	if !strings.Contains(eo["message"].(string), "extra") {
		t.Fatalf("message does not name the property: %v", eo["message"])
	}
}

func TestCallRejectsWrongTypeWithPointer(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, echoTool("echo"))
	res := r.Call(context.Background(), "echo", json.RawMessage(`{"text":"hi","n":"seven"}`))
	eo := errorObject(t, res)
	problems := problemsOf(t, eo)
	if len(problems) != 1 || problems[0]["pointer"] != "/n" || problems[0]["keyword"] != "/properties/n/type" {
		t.Fatalf("problems = %v", problems)
	}
	wantJSON := `{"error":{"code":"invalid_arguments","details":{"errors":[{"keyword":"/properties/n/type","message":` +
		`"expected integer, got string","pointer":"/n"}]},"message":"arguments do not match the input schema at /n: ` +
		`expected integer, got string","retryable":false},"ok":false}`
	if string(res.JSON) != wantJSON {
		t.Fatalf("got  %s\nwant %s", res.JSON, wantJSON)
	}
}

func TestCallMultipleProblemsAreSortedAndCounted(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, echoTool("echo"))
	res := r.Call(context.Background(), "echo", json.RawMessage(`{"n":1.5,"zzz":0}`))
	eo := errorObject(t, res)
	problems := problemsOf(t, eo)
	if len(problems) < 2 {
		t.Fatalf("problems = %v", problems)
	}
	for i := 1; i < len(problems); i++ {
		if problems[i-1]["pointer"].(string) > problems[i]["pointer"].(string) {
			t.Fatalf("not sorted: %v", problems)
		}
	}
	if !strings.Contains(eo["message"].(string), "more)") {
		t.Fatalf("message = %v", eo["message"])
	}
}

func TestCallCustomInvalidArgumentsCode(t *testing.T) {
	r := NewRegistry(nil)
	tool := echoTool("echo")
	tool.InvalidArgumentsCode = "invalid_operation"
	mustRegister(t, r, tool)
	for _, args := range []string{`{"text":1}`, `{not json`, `[1]`} {
		eo := errorObject(t, r.Call(context.Background(), "echo", json.RawMessage(args)))
		if eo["code"] != "invalid_operation" {
			t.Fatalf("args %s: code = %v", args, eo["code"])
		}
	}
}

func TestCallBlankAndNullArgsAreEmptyObject(t *testing.T) {
	r := NewRegistry(nil)
	var seen []string
	mustRegister(t, r, Tool{
		Name:        "noargs",
		Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			seen = append(seen, string(args))
			return nil, nil
		},
	})
	for _, args := range []json.RawMessage{nil, {}, json.RawMessage(" \n"), json.RawMessage("null")} {
		if res := r.Call(context.Background(), "noargs", args); !res.OK {
			t.Fatalf("args %q: %s", args, res.JSON)
		}
	}
	for _, s := range seen {
		if s != "{}" {
			t.Fatalf("handler saw %q", s)
		}
	}
	// A tool with required properties rejects blank arguments.
	mustRegister(t, r, echoTool("echo"))
	eo := errorObject(t, r.Call(context.Background(), "echo", nil))
	if eo["code"] != CodeInvalidArguments {
		t.Fatalf("code = %v", eo["code"])
	}
}

func TestCallNotJSONArgs(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, echoTool("echo"))
	eo := errorObject(t, r.Call(context.Background(), "echo", json.RawMessage(`{"text":"a"} trailing`)))
	if eo["code"] != CodeInvalidArguments || !strings.Contains(eo["message"].(string), "not valid JSON") {
		t.Fatalf("error = %v", eo)
	}
}

func TestCallToolErrorPassesThrough(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, Tool{
		Name:        "fail",
		Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return nil, fmt.Errorf("wrapped: %w", Errorf("not_found", "no such file %q", "a<b>").WithDetails(map[string]any{"path": "a<b>", "tries": 3}))
		},
	})
	res := r.Call(context.Background(), "fail", nil)
	want := `{"error":{"code":"not_found","details":{"path":"a<b>","tries":3},"message":"no such file \"a<b>\"","retryable":false},"ok":false}`
	if res.OK || string(res.JSON) != want {
		t.Fatalf("got  %s\nwant %s", res.JSON, want)
	}
}

func TestCallToolErrorWithoutCode(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, Tool{
		Name: "nocode", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler:     func(context.Context, json.RawMessage) (any, error) { return nil, &Error{Message: "m"} },
	})
	eo := errorObject(t, r.Call(context.Background(), "nocode", nil))
	if eo["code"] != CodeInternal || eo["message"] != "m" {
		t.Fatalf("error = %v", eo)
	}
}

func TestCallPlainErrorIsInternalAndLogged(t *testing.T) {
	core, logs := observer.New(zap.ErrorLevel)
	r := NewRegistry(zap.New(core))
	mustRegister(t, r, Tool{
		Name: "oops", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return nil, errors.New("db password is hunter2")
		},
	})
	res := r.Call(context.Background(), "oops", nil)
	if string(res.JSON) != `{"error":{"code":"internal_error","message":"internal error","retryable":false},"ok":false}` {
		t.Fatalf("got %s", res.JSON)
	}
	entries := logs.FilterMessage("tool handler failed").All()
	if len(entries) != 1 || !strings.Contains(entries[0].ContextMap()["error"].(string), "hunter2") {
		t.Fatalf("real error not logged: %v", logs.All())
	}
}

func TestCallPanicIsRecovered(t *testing.T) {
	core, logs := observer.New(zap.ErrorLevel)
	r := NewRegistry(zap.New(core))
	mustRegister(t, r, Tool{
		Name: "boom", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler:     func(context.Context, json.RawMessage) (any, error) { panic("kaboom") },
	})
	res := r.Call(context.Background(), "boom", nil)
	if code := errorObject(t, res)["code"]; code != CodeInternal {
		t.Fatalf("code = %v", code)
	}
	if logs.FilterMessage("tool handler panicked").Len() != 1 {
		t.Fatalf("panic not logged: %v", logs.All())
	}
}

func TestCallUnknownTool(t *testing.T) {
	r := NewRegistry(nil)
	res := r.Call(context.Background(), "nope", nil)
	if string(res.JSON) != `{"error":{"code":"unknown_tool","message":"unknown tool \"nope\"","retryable":false},"ok":false}` {
		t.Fatalf("got %s", res.JSON)
	}
}

func TestCallResultShapes(t *testing.T) {
	cases := []struct {
		name   string
		value  any
		want   string
		wantOK bool
	}{
		{"nil", nil, `{"ok":true}`, true},
		{"typed nil", (*struct{})(nil), `{"ok":true}`, true},
		{"own ok false", map[string]any{"ok": false, "why": "x"}, `{"ok":false,"why":"x"}`, false},
		{"own ok string", map[string]any{"ok": "yes"}, `{"ok":"yes"}`, true},
		{"own ok null", map[string]any{"ok": nil}, `{"ok":null}`, true},
		{"array", []int{1, 2}, `[1,2]`, true},
		{"string", "x<y", `"x<y"`, true},
		{"raw big number", json.RawMessage(`{"n":1e400,"m":18446744073709551616}`), `{"m":18446744073709551616,"n":1e400,"ok":true}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry(nil)
			mustRegister(t, r, Tool{
				Name: "v", Description: "d",
				InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
				Handler:     func(context.Context, json.RawMessage) (any, error) { return tc.value, nil },
			})
			res := r.Call(context.Background(), "v", nil)
			if string(res.JSON) != tc.want || res.OK != tc.wantOK {
				t.Fatalf("got OK=%v %s, want OK=%v %s", res.OK, res.JSON, tc.wantOK, tc.want)
			}
		})
	}
}

func TestCallUnmarshalableResult(t *testing.T) {
	core, logs := observer.New(zap.ErrorLevel)
	r := NewRegistry(zap.New(core))
	mustRegister(t, r, Tool{
		Name: "ch", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler:     func(context.Context, json.RawMessage) (any, error) { return make(chan int), nil },
	})
	if code := errorObject(t, r.Call(context.Background(), "ch", nil))["code"]; code != CodeInternal {
		t.Fatalf("code = %v", code)
	}
	if logs.Len() == 0 {
		t.Fatal("nothing logged")
	}
}

func TestCallUnmarshalableDetailsAreDropped(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, Tool{
		Name: "d", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return nil, &Error{Code: "c", Message: "m", Details: func() {}}
		},
	})
	res := r.Call(context.Background(), "d", nil)
	if string(res.JSON) != `{"error":{"code":"c","message":"m","retryable":false},"ok":false}` {
		t.Fatalf("got %s", res.JSON)
	}
}

func TestCallPassesContext(t *testing.T) {
	type key struct{}
	r := NewRegistry(nil)
	mustRegister(t, r, Tool{
		Name: "ctx", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			return map[string]any{"v": ctx.Value(key{})}, nil
		},
	})
	res := r.Call(context.WithValue(context.Background(), key{}, "here"), "ctx", nil)
	if string(res.JSON) != `{"ok":true,"v":"here"}` {
		t.Fatalf("got %s", res.JSON)
	}
}

// problemsOf returns error.details.errors as generic objects.
func problemsOf(t *testing.T, eo map[string]any) []map[string]any {
	t.Helper()
	details, _ := eo["details"].(map[string]any)
	list, _ := details["errors"].([]any)
	var out []map[string]any
	for _, p := range list {
		out = append(out, p.(map[string]any))
	}
	if len(out) == 0 {
		t.Fatalf("no problems in %v", eo)
	}
	return out
}

func TestCallSameToolConcurrently(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, echoTool("echo"))
	done := make(chan string, 8)
	for i := range 8 {
		go func() {
			var bad string
			for j := range 50 {
				args := json.RawMessage(fmt.Sprintf(`{"text":"g%d","n":%d}`, i, j))
				if j%3 == 0 {
					args = json.RawMessage(`{"text":1}`)
				}
				res := r.Call(context.Background(), "echo", args)
				if res.OK == (j%3 == 0) {
					bad = string(res.JSON)
				}
			}
			done <- bad
		}()
	}
	for range 8 {
		if bad := <-done; bad != "" {
			t.Fatalf("unexpected result %s", bad)
		}
	}
}

// TestRetryableIsAlwaysSaid: every failure says whether retrying can
// help, and how long to wait when the handler knows.
func TestRetryableIsAlwaysSaid(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, Tool{
		Name: "busy", Description: "always busy", InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return nil, &Error{Code: "scene_busy", Message: "held", Retryable: true, RetryAfterSec: 2}
		},
	})
	got := string(r.Call(context.Background(), "busy", nil).JSON)
	want := `{"error":{"code":"scene_busy","message":"held","retryAfterSec":2,"retryable":true},"ok":false}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
