package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// typedCommon are members several tools share; typedOwn a tool's own.
type typedCommon struct {
	Name string `json:"name"`
}

type typedOwn struct {
	Count int            `json:"count"`
	Items []typedItem    `json:"items"`
	Meta  map[string]any `json:"meta"`
}

// typedBoth is both, as a struct per tool would embed them.
type typedBoth struct {
	typedCommon
	typedOwn
}

// TypedWith decodes what Typed decodes into a struct embedding both types,
// and refuses what it refuses with the same problem: pointer, message.
func TestTypedWithAsTypedOfBoth(t *testing.T) {
	both := NewRegistry(nil)
	mustRegister(t, both, Tool{Name: "typed", Description: "d", InputSchema: json.RawMessage(typedSchema), InvalidArgumentsCode: "bad_input",
		Handler: Typed(func(_ context.Context, in typedBoth) (any, error) { return in, nil })})
	with := NewRegistry(nil)
	mustRegister(t, with, Tool{Name: "typed", Description: "d", InputSchema: json.RawMessage(typedSchema), InvalidArgumentsCode: "bad_input",
		Handler: TypedWith(func(_ context.Context, c typedCommon, in typedOwn) (any, error) { return typedBoth{c, in}, nil })})
	for _, args := range []string{
		`{"name":"a","count":3,"items":[{"id":"x"},{"id":"y"}],"meta":{"big":12345678901234567890.5,"s":"}{\"],"}}`,
		`{"name":"a"}`,
		`{"name":"a\u00e9","meta":{}}`,
		`{"name":"a","items":[{"id":"x"},{"id":"y","extra":1}]}`,
		`{"name":"a","count":1.5}`,
		`{"name":"a","count":1e40}`,
	} {
		want, got := both.Call(t.Context(), "typed", json.RawMessage(args)), with.Call(t.Context(), "typed", json.RawMessage(args))
		if string(got.JSON) != string(want.JSON) {
			t.Errorf("%s:\n got %s\nwant %s", args, got.JSON, want.JSON)
		}
	}
}

// A member of the shared type that it cannot take is refused at its
// pointer; a member of neither type is the tool's unknown property.
func TestTypedWithRefusals(t *testing.T) {
	type common struct {
		Revision int `json:"revision"`
	}
	type own struct {
		Text string `json:"text"`
	}
	h := TypedWith(func(context.Context, common, own) (any, error) { return nil, nil })
	for _, tc := range []struct{ args, pointer, message string }{
		{`{"revision":"x","text":"a"}`, "/revision", "expected integer (int), got string"},
		{`{"revision":1,"text":"a","other":true}`, "", `unknown property "other"`},
	} {
		_, err := h(t.Context(), json.RawMessage(tc.args))
		var ae *argumentsError
		if !errors.As(err, &ae) || ae.problem.Pointer != tc.pointer || !strings.Contains(ae.problem.Message, tc.message) {
			t.Errorf("%s: %v", tc.args, err)
		}
	}
	if _, err := h(t.Context(), nil); err != nil {
		t.Errorf("blank arguments: %v", err)
	}
}

// objectMembers finds each member's bytes without decoding values, also
// around whitespace and strings holding braces, brackets and quotes.
func TestObjectMembers(t *testing.T) {
	src := []byte(` { "a" : [1, {"x":"]}"}] , "b\"c":"\\\"}" ,"d":-1.5e3,"e":null}`)
	spans, err := objectMembers(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range spans {
		got = append(got, s.name+"="+string(src[s.start:s.end]))
	}
	want := []string{`a="a" : [1, {"x":"]}"}]`, `b"c="b\"c":"\\\"}"`, `d="d":-1.5e3`, `e="e":null`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for _, bad := range []string{`[1]`, `{"a":[1}`, `{"a" 1}`, `"x"`} {
		if _, err := objectMembers([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// BenchmarkTypedWith measures TypedWith against Typed of one struct on a
// large call (2,000 items): the ratio of their times is what sharing the
// common type costs.
func BenchmarkTypedWith(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"count":3,"items":[`)
	for i := range 2000 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"id":"element-%d"}`, i)
	}
	sb.WriteString(`],"meta":{"note":"x"},"name":"plan"}`)
	args := json.RawMessage(sb.String())
	b.Run("Typed", func(b *testing.B) {
		h := Typed(func(_ context.Context, in typedBoth) (any, error) { return nil, nil })
		for b.Loop() {
			if _, err := h(b.Context(), args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("TypedWith", func(b *testing.B) {
		h := TypedWith(func(_ context.Context, c typedCommon, in typedOwn) (any, error) { return nil, nil })
		for b.Loop() {
			if _, err := h(b.Context(), args); err != nil {
				b.Fatal(err)
			}
		}
	})
}
