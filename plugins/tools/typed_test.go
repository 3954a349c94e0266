package tools

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// typedSchema accepts more than typedIn takes on purpose: "extra" members
// of the items and any number for "count", so that the tests can reach
// the decoder with arguments the schema passed.
const typedSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["name"],
  "properties": {
    "name": {"type": "string"},
    "count": {"type": "number"},
    "items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}},
    "meta": {"type": "object"}
  }
}`

type typedItem struct {
	ID string `json:"id"`
}

type typedIn struct {
	Name  string         `json:"name"`
	Count int            `json:"count"`
	Items []typedItem    `json:"items"`
	Meta  map[string]any `json:"meta"`
}

// typedTool registers a tool whose handler is Typed(fn) and returns a
// function calling it.
func typedTool[In, Out any](t *testing.T, code string, fn func(context.Context, In) (Out, error)) (*Registry, func(ctx context.Context, args string) Result) {
	t.Helper()
	r := NewRegistry(nil)
	mustRegister(t, r, Tool{
		Name: "typed", Description: "d", InputSchema: json.RawMessage(typedSchema),
		Handler: Typed(fn), InvalidArgumentsCode: code,
	})
	return r, func(ctx context.Context, args string) Result { return r.Call(ctx, "typed", json.RawMessage(args)) }
}

func TestTypedDecodesIntoStruct(t *testing.T) {
	var got typedIn
	_, call := typedTool(t, "", func(_ context.Context, in typedIn) (map[string]any, error) {
		got = in
		return map[string]any{"name": in.Name, "items": len(in.Items)}, nil
	})
	res := call(t.Context(), `{"name":"a","count":3,"items":[{"id":"x"},{"id":"y"}],"meta":{"big":12345678901234567890.5}}`)
	if !res.OK || string(res.JSON) != `{"items":2,"name":"a","ok":true}` {
		t.Fatalf("result %s", res.JSON)
	}
	want := typedIn{Name: "a", Count: 3, Items: []typedItem{{"x"}, {"y"}},
		Meta: map[string]any{"big": json.Number("12345678901234567890.5")}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("handler got %#v, want %#v", got, want)
	}
}

func TestTypedPassesContext(t *testing.T) {
	type key struct{}
	_, call := typedTool(t, "", func(ctx context.Context, _ typedIn) (any, error) {
		return map[string]any{"v": ctx.Value(key{})}, nil
	})
	res := call(context.WithValue(t.Context(), key{}, "here"), `{"name":"a"}`)
	if string(res.JSON) != `{"ok":true,"v":"here"}` {
		t.Fatalf("got %s", res.JSON)
	}
}

func TestTypedHandlerErrorsPassThrough(t *testing.T) {
	_, call := typedTool(t, "", func(context.Context, typedIn) (*typedItem, error) {
		return nil, Errorf("not_found", "no such thing")
	})
	if res := call(t.Context(), `{"name":"a"}`); string(res.JSON) != `{"error":{"code":"not_found","message":"no such thing","retryable":false},"ok":false}` {
		t.Fatalf("got %s", res.JSON)
	}
	_, call = typedTool(t, "", func(context.Context, typedIn) (*typedItem, error) { return nil, nil })
	if res := call(t.Context(), `{"name":"a"}`); string(res.JSON) != `{"ok":true}` {
		t.Fatalf("a nil result: %s", res.JSON)
	}
}

// TestTypedRefusesWhatInCannotTake: arguments the schema passed but In
// cannot take fail as the tool's invalid-arguments error, pointing at the
// value, and the mismatch is logged.
func TestTypedRefusesWhatInCannotTake(t *testing.T) {
	cases := []struct {
		name, args, pointer, message string
	}{
		{"unknown member", `{"name":"a","items":[{"id":"x"},{"id":"y","extra":1}]}`, "/items/1", `unknown property "extra"`},
		{"wrong type", `{"name":"a","count":1.5}`, "/count", "expected integer (int), got number 1.5"},
		{"out of range", `{"name":"a","count":1e40}`, "/count", "expected integer (int), got number 1e40"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			r, call := typedTool(t, "bad_input", func(context.Context, typedIn) (any, error) { called = true; return nil, nil })
			core, logs := observer.New(zap.WarnLevel)
			r.log = zap.New(core)
			res := call(t.Context(), tc.args)
			if called {
				t.Fatal("the handler ran")
			}
			eo := errorObject(t, res)
			if eo["code"] != "bad_input" {
				t.Fatalf("code %v in %s", eo["code"], res.JSON)
			}
			ps := problemsOf(t, eo)
			if len(ps) != 1 || ps[0]["pointer"] != tc.pointer || ps[0]["message"] != tc.message || ps[0]["keyword"] != "" {
				t.Fatalf("problems %v", ps)
			}
			if want := decodeHead + " at " + tc.pointer + ": " + tc.message; eo["message"] != want {
				t.Fatalf("message %q, want %q", eo["message"], want)
			}
			if logs.Len() != 1 {
				t.Fatalf("logs %v", logs.All())
			}
		})
	}
}

func TestTypedDefaultCode(t *testing.T) {
	_, call := typedTool(t, "", func(context.Context, struct {
		Name string `json:"name"`
	}) (any, error) {
		return nil, nil
	})
	eo := errorObject(t, call(t.Context(), `{"name":"a","count":1}`))
	if eo["code"] != CodeInvalidArguments || problemsOf(t, eo)[0]["message"] != `unknown property "count"` {
		t.Fatalf("error %v", eo)
	}
}

func TestTypedNilIsNoHandler(t *testing.T) {
	var fn func(context.Context, typedIn) (any, error)
	_, err := NewRegistry(nil).Register(Tool{Name: "t", Description: "d", InputSchema: json.RawMessage(typedSchema), Handler: Typed(fn)})
	if !errors.Is(err, ErrNoHandler) {
		t.Fatalf("err = %v", err)
	}
}

// TestTypedDirectCall: called outside the registry, blank arguments are
// {} and a failure is still an error saying where.
func TestTypedDirectCall(t *testing.T) {
	h := Typed(func(_ context.Context, in typedIn) (string, error) { return in.Name, nil })
	if v, err := h(t.Context(), nil); v != "" || err != nil {
		t.Fatalf("blank: %v, %v", v, err)
	}
	_, err := h(t.Context(), json.RawMessage(`{"name":"a"} {}`))
	var ae *argumentsError
	if !errors.As(err, &ae) || ae.problem.Pointer != "" {
		t.Fatalf("trailing data: %v", err)
	}
	_, err = h(t.Context(), json.RawMessage(`{"name":7}`))
	if err == nil || err.Error() != decodeHead+" at /name: expected string, got number" {
		t.Fatalf("wrong type: %v", err)
	}
}

// TestLocateDecodeProblem covers what the walk must agree with
// encoding/json on: promoted fields of embedded structs, names that match
// in another case, tag options, maps, arrays and pointers.
func TestLocateDecodeProblem(t *testing.T) {
	type Base struct {
		Kind string `json:"kind"`
	}
	type leaf struct {
		N int `json:"n"`
	}
	type in struct {
		Base
		Leaf   *leaf            `json:"leaf"`
		Title  string           `json:"title"`
		Quoted int              `json:"quoted,string"`
		ByName map[string]*leaf `json:"by_name"`
		Grid   [2][]leaf        `json:"grid"`
		Raw    json.RawMessage  `json:"raw"`
		Plain  bool
		Hidden string `json:"-"`
	}
	cases := []struct{ args, pointer, message string }{
		{`{"kind":1}`, "/kind", "expected string, got number"},
		{`{"KIND":"a","TITLE":"b","plain":true,"quoted":"x"}`, "/quoted", `invalid use of ,string struct tag, trying to unmarshal "x" into int`},
		{`{"leaf":{"n":"x"}}`, "/leaf/n", "expected integer (int), got string"},
		{`{"by_name":{"a":{"n":1},"b":{"n":2,"m":3}}}`, "/by_name/b", `unknown property "m"`},
		{`{"grid":[[],[{"n":1},{"n":true}]]}`, "/grid/1/1/n", "expected integer (int), got boolean"},
		{`{"grid":{}}`, "/grid", "expected array, got object"},
		{`{"raw":{"anything":[1]},"Hidden":"x"}`, "", `unknown property "Hidden"`},
		{`{"a~b/c":1}`, "", `unknown property "a~b/c"`},
		{`{"by_name":{"x/y":{"m~":1}}}`, "/by_name/x~1y", `unknown property "m~"`},
	}
	for _, tc := range cases {
		var v in
		err := decodeInto([]byte(tc.args), &v)
		if err == nil {
			t.Fatalf("%s decodes", tc.args)
		}
		var ae *argumentsError
		if !errors.As(explainDecode(reflect.TypeFor[in](), json.RawMessage(tc.args), err), &ae) {
			t.Fatalf("%s: no arguments error", tc.args)
		}
		if ae.problem.Pointer != tc.pointer || ae.problem.Message != tc.message {
			t.Errorf("%s: %q %q, want %q %q", tc.args, ae.problem.Pointer, ae.problem.Message, tc.pointer, tc.message)
		}
	}
	// What encoding/json takes, the walk takes too.
	ok := `{"KIND":"a","leaf":{"n":1},"quoted":"5","by_name":{"a":null},"grid":[[{"n":1}],[]],"raw":[1,{"x":2}],"Plain":true}`
	var v in
	if err := decodeInto([]byte(ok), &v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	generic, _ := decodeJSON([]byte(ok))
	if p, found := locateDecodeProblem(reflect.TypeFor[in](), generic, ""); found {
		t.Fatalf("problem found in what decodes: %+v", p)
	}
}
