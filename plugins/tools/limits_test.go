package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

func TestCountAt(t *testing.T) {
	cases := []struct {
		doc, pointer string
		n            int64
		found        bool
	}{
		{`{"a":[1,2,3]}`, "/a", 3, true},
		{` { "a" : [ ] } `, "/a", 0, true},
		{`{"a":{"x":1,"y":[1,2]}}`, "/a", 2, true},
		{`{"a":{}}`, "/a", 0, true},
		{`{"b":[1],"a":[[1,2],{"k":[3,4,5]},"],[",-1.5e3,true,null]}`, "/a", 6, true},
		{`{"s":"\"a\":[1,2]","a":[1]}`, "/a", 1, true},
		{`{"\u0061":[1,2]}`, "/a", 2, true},              // escaped member names are what they decode to
		{`{"a":[1],"a":[1,2,3],"a":[2]}`, "/a", 3, true}, // every occurrence, the largest
		{`{"o":{"a":[1,2]},"a":[9]}`, "/o/a", 2, true},
		{`{"a/b":[1,2],"m~n":[1]}`, "/a~1b", 2, true},
		{`{"a/b":[1,2],"m~n":[1]}`, "/m~0n", 1, true},
		{`{"a":"not an array"}`, "/a", 0, false},
		{`{"b":[1,2]}`, "/a", 0, false},
		{`[1,2]`, "/a", 0, false},
		{`{"a":[1,2]`, "/a", 0, false}, // the structure is broken
		{`{"a":[1,2,}`, "/a", 0, false},
		{`{"a":[1 2]}`, "/a", 0, false},
		{`{"a":"unterminated`, "/a", 0, false},
		{`{"x":[[[[[[[[[[]]]]]]]]]],"a":[1]}`, "/a", 1, true},
	}
	for _, c := range cases {
		path, err := parsePointer(c.pointer)
		if err != nil {
			t.Fatal(err)
		}
		n, found := countAt([]byte(c.doc), path)
		if n != c.n || found != c.found {
			t.Errorf("countAt(%s, %s) = %d, %v; want %d, %v", c.doc, c.pointer, n, found, c.n, c.found)
		}
	}
	// Nesting depth costs no stack.
	deep := `{"x":` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + `,"a":[1,2]}`
	if n, found := countAt([]byte(deep), []string{"a"}); n != 2 || !found {
		t.Errorf("deep: %d, %v", n, found)
	}
}

// limitedTool is a tool whose every item must be an object with a number
// "x", capped by limits; calls counts the handler's runs.
func limitedTool(calls *atomic.Int32, limits ...ArgumentLimit) Tool {
	return Tool{
		Name:        "limited",
		Description: "A tool with argument limits.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{
			"items":{"type":"array","items":{"oneOf":[
				{"type":"object","required":["x"],"properties":{"x":{"type":"number"}}},
				{"type":"object","required":["y"],"properties":{"y":{"type":"number"}}}]}},
			"note":{"type":"string"}}}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			calls.Add(1)
			return map[string]any{}, nil
		},
		ArgumentLimits: limits,
	}
}

func items(n int, item string) string {
	return `{"items":[` + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + `]}`
}

// TestArgumentLimitsRunBeforeTheSchema: a call over a count limit is
// refused with the limit's code and details even though every item fails
// the schema (so the schema did not run first), and the handler never
// runs; a call within it is the schema's again.
func TestArgumentLimitsRunBeforeTheSchema(t *testing.T) {
	var calls atomic.Int32
	var max atomic.Int64
	max.Store(3)
	r := NewRegistry(nil)
	mustRegister(t, r, limitedTool(&calls, ArgumentLimit{
		Pointer: "/items", Code: "too_many_items", Name: "maxItems", Unit: "items",
		Max: max.Load,
	}))

	res := r.Call(t.Context(), "limited", json.RawMessage(items(4, `{"x":"bad"}`)))
	wantFailure(t, res, "too_many_items", `/items holds 4 items; the limit is 3 (maxItems)`)
	wantDetails(t, res, map[string]any{"limit": "maxItems", "max": json.Number("3"), "actual": json.Number("4"), "pointer": "/items"})

	res = r.Call(t.Context(), "limited", json.RawMessage(items(3, `{"x":"bad"}`)))
	wantFailure(t, res, CodeInvalidArguments, "")

	// The limit is read on every call.
	max.Store(2)
	wantFailure(t, r.Call(t.Context(), "limited", json.RawMessage(items(3, `{"x":1}`))), "too_many_items", "")
	max.Store(0) // <= 0 checks nothing
	if res := r.Call(t.Context(), "limited", json.RawMessage(items(3, `{"x":1}`))); !res.OK {
		t.Fatalf("disabled limit refused: %s", res.JSON)
	}
	if calls.Load() != 1 {
		t.Fatalf("handler ran %d times, want once", calls.Load())
	}
}

// TestLengthLimitsComeFirst: a length limit is checked before any count
// (and the registry-wide bound before the tool's), whatever the order
// they were declared in.
func TestLengthLimitsComeFirst(t *testing.T) {
	var calls atomic.Int32
	r := NewRegistry(nil)
	mustRegister(t, r, limitedTool(&calls,
		ArgumentLimit{Pointer: "/items", Max: func() int64 { return 1 }},
		ArgumentLimit{Name: "maxSceneBytes", Max: func() int64 { return 20 }},
	))
	args := json.RawMessage(items(2, `{"x":1}`))
	res := r.Call(t.Context(), "limited", args)
	wantFailure(t, res, CodeTooLarge, "the arguments are 27 bytes; the limit is 20 (maxSceneBytes)")
	wantDetails(t, res, map[string]any{"limit": "maxSceneBytes", "max": json.Number("20"), "actual": json.Number("27")})

	r.SetMaxArgumentBytes(10)
	res = r.Call(t.Context(), "limited", args)
	wantFailure(t, res, CodeTooLarge, "the arguments are 27 bytes; the limit is 10 (maxArgumentBytes)")
	r.SetMaxArgumentBytes(0)
	if r.MaxArgumentBytes() != DefaultMaxArgumentBytes {
		t.Fatalf("SetMaxArgumentBytes(0) = %d", r.MaxArgumentBytes())
	}
	res = r.Call(t.Context(), "limited", json.RawMessage(`{"items":[1,2]}`))
	wantFailure(t, res, CodeTooLarge, "/items holds 2 items; the limit is 1 (/items)")
	if calls.Load() != 0 {
		t.Fatal("handler ran")
	}
}

// TestRegistryWideBoundAppliesToEveryTool: a tool without limits of its
// own is still bounded by the registry (what stdio relies on).
func TestRegistryWideBoundAppliesToEveryTool(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, echoTool("echo"))
	r.SetMaxArgumentBytes(1024)
	res := r.Call(t.Context(), "echo", json.RawMessage(`{"text":"`+strings.Repeat("x", 1024)+`"}`))
	wantFailure(t, res, CodeTooLarge, "")
	wantDetails(t, res, map[string]any{"limit": MaxArgumentBytesLimit, "max": json.Number("1024"), "actual": json.Number("1035")})
}

func TestRegisterRejectsBadLimits(t *testing.T) {
	one := func() int64 { return 1 }
	for _, l := range []ArgumentLimit{
		{Pointer: "/items"},             // no Max
		{Pointer: "items", Max: one},    // not a pointer
		{Pointer: "/it~2ems", Max: one}, // bad escape
		{Pointer: "/items~", Max: one},  // dangling escape
	} {
		var calls atomic.Int32
		_, err := NewRegistry(nil).Register(limitedTool(&calls, l))
		if !errors.Is(err, ErrInvalidLimit) {
			t.Errorf("%+v: err = %v", l, err)
		}
	}
}

// TestPanickingLimitIsInternal: a Max that panics is a plugin bug; the
// call fails as internal_error and the host keeps running.
func TestPanickingLimitIsInternal(t *testing.T) {
	var calls atomic.Int32
	r := NewRegistry(nil)
	mustRegister(t, r, limitedTool(&calls, ArgumentLimit{Pointer: "/items", Max: func() int64 { panic("boom") }}))
	wantFailure(t, r.Call(t.Context(), "limited", json.RawMessage(`{"items":[]}`)), CodeInternal, "")
	if calls.Load() != 0 {
		t.Fatal("handler ran")
	}
}

func wantFailure(t *testing.T, res Result, code, message string) {
	t.Helper()
	obj, _ := res.Value().(map[string]any)
	eo, _ := obj["error"].(map[string]any)
	if res.OK || eo == nil || eo["code"] != code {
		t.Fatalf("want %s, got %s", code, res.JSON)
	}
	if message != "" && eo["message"] != message {
		t.Fatalf("message = %q, want %q", eo["message"], message)
	}
}

func wantDetails(t *testing.T, res Result, want map[string]any) {
	t.Helper()
	got, _ := res.Value().(map[string]any)["error"].(map[string]any)["details"].(map[string]any)
	if len(got) != len(want) {
		t.Fatalf("details = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("details[%s] = %#v, want %#v (all: %v)", k, got[k], v, got)
		}
	}
}

// BenchmarkCountAt is the skip-scan over 100,001 small elements.
func BenchmarkCountAt(b *testing.B) {
	doc := []byte(items(100_001, `{"type":"rectangle","x":12,"y":0,"label":{"text":"a \"b\" c"}}`))
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if n, _ := countAt(doc, []string{"items"}); n != 100_001 {
			b.Fatal(n)
		}
	}
}
