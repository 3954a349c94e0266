package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestRegisterRejectsBadTools(t *testing.T) {
	base := echoTool("ok")
	cases := []struct {
		name string
		mod  func(*Tool)
		want error
	}{
		{"invalid json schema", func(t *Tool) { t.InputSchema = json.RawMessage(`{"type":`) }, ErrInvalidSchema},
		{"schema does not compile", func(t *Tool) {
			t.InputSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{"a":{"type":42}}}`)
		}, ErrInvalidSchema},
		{"non-object root", func(t *Tool) { t.InputSchema = json.RawMessage(`{"type":"array","additionalProperties":false}`) }, ErrInvalidSchema},
		{"missing additionalProperties", func(t *Tool) { t.InputSchema = json.RawMessage(`{"type":"object"}`) }, ErrInvalidSchema},
		{"nil schema", func(t *Tool) { t.InputSchema = nil }, ErrInvalidSchema},
		{"bad name", func(t *Tool) { t.Name = "no spaces" }, ErrInvalidName},
		{"empty description", func(t *Tool) { t.Description = "" }, ErrNoDescription},
		{"nil handler", func(t *Tool) { t.Handler = nil }, ErrNoHandler},
	}
	r := NewRegistry(nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tool := base
			tc.mod(&tool)
			var (
				unregister func()
				err        error
			)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("Register panicked: %v", p)
					}
				}()
				unregister, err = r.Register(tool)
			}()
			if !errors.Is(err, tc.want) {
				t.Fatalf("Register error = %v, want %v", err, tc.want)
			}
			if unregister != nil {
				t.Fatal("unregister must be nil on error")
			}
		})
	}
	if r.Len() != 0 {
		t.Fatalf("registry has %d tools after only failures", r.Len())
	}
}

func TestRegisterRejectsDuplicate(t *testing.T) {
	r := NewRegistry(nil)
	mustRegister(t, r, echoTool("dup"))
	_, err := r.Register(echoTool("dup"))
	if !errors.Is(err, ErrDuplicate) {
		t.Fatalf("second Register = %v, want ErrDuplicate", err)
	}
	if r.Len() != 1 {
		t.Fatalf("Len = %d", r.Len())
	}
}

func TestUnregisterIsIdempotentAndScoped(t *testing.T) {
	r := NewRegistry(nil)
	first := mustRegister(t, r, echoTool("x"))
	first()
	first() // idempotent
	if _, ok := r.Lookup("x"); ok {
		t.Fatal("tool still present after unregister")
	}

	replacement := echoTool("x")
	replacement.Description = "the newer one"
	second := mustRegister(t, r, replacement)
	first() // must not remove the later registration
	d, ok := r.Lookup("x")
	if !ok || d.Description != "the newer one" {
		t.Fatalf("stale unregister removed the re-registration: %+v %v", d, ok)
	}
	second()
	if r.Len() != 0 {
		t.Fatalf("Len = %d", r.Len())
	}
}

func TestListSortedAndLookup(t *testing.T) {
	r := NewRegistry(nil)
	for _, n := range []string{"zeta", "alpha", "Mid", "beta.x"} {
		mustRegister(t, r, echoTool(n))
	}
	var names []string
	for _, d := range r.List() {
		names = append(names, d.Name)
	}
	if want := []string{"Mid", "alpha", "beta.x", "zeta"}; !slices.Equal(names, want) {
		t.Fatalf("List order = %v, want %v", names, want)
	}
	d, ok := r.Lookup("alpha")
	if !ok {
		t.Fatal("Lookup failed")
	}
	if d.Annotations != (Annotations{Title: "Echo", ReadOnly: true, Idempotent: true}) {
		t.Fatalf("annotations = %+v", d.Annotations)
	}
	var schema map[string]any
	if err := json.Unmarshal(d.InputSchema, &schema); err != nil || schema["type"] != "object" {
		t.Fatalf("schema = %s (%v)", d.InputSchema, err)
	}
	d.InputSchema[0] = 'X'
	if again, _ := r.Lookup("alpha"); again.InputSchema[0] != '{' {
		t.Fatal("Lookup returned shared schema memory")
	}
	if _, ok := r.Lookup("missing"); ok {
		t.Fatal("Lookup of missing tool succeeded")
	}
}

func TestRegisterCopiesSchema(t *testing.T) {
	r := NewRegistry(nil)
	tool := echoTool("copy")
	schema := append(json.RawMessage(nil), tool.InputSchema...)
	tool.InputSchema = schema
	mustRegister(t, r, tool)
	for i := range schema {
		schema[i] = ' '
	}
	res := r.Call(context.Background(), "copy", json.RawMessage(`{"text":"hi"}`))
	if !res.OK {
		t.Fatalf("mutating the caller's schema affected the registry: %s", res.JSON)
	}
}

func TestConcurrentRegisterCallUnregister(t *testing.T) {
	r := NewRegistry(nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("t%d", i)
			for range 20 {
				unregister, err := r.Register(echoTool(name))
				if err != nil {
					t.Errorf("Register: %v", err)
					return
				}
				if res := r.Call(context.Background(), name, json.RawMessage(`{"text":"x"}`)); !res.OK {
					t.Errorf("Call: %s", res.JSON)
				}
				_ = r.List()
				unregister()
			}
		}()
	}
	wg.Wait()
	if r.Len() != 0 {
		t.Fatalf("Len = %d", r.Len())
	}
}

// TestListedSchema: a tool's ListedSchema is what List shows; calls are
// still checked against its InputSchema, and a listed schema that breaks
// the rules is refused.
func TestListedSchema(t *testing.T) {
	r := NewRegistry(nil)
	tool := Tool{Name: "listed", Description: "Echo a bounded text.",
		InputSchema:  json.RawMessage(`{"type":"object","additionalProperties":false,"required":["text"],"properties":{"text":{"type":"string","maxLength":3}}}`),
		ListedSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["text"],"properties":{"text":{"type":"string","description":"at most 3 characters"}}}`),
		Handler:      func(context.Context, json.RawMessage) (any, error) { return map[string]any{}, nil }}
	mustRegister(t, r, tool)
	d, _ := r.Lookup("listed")
	if !strings.Contains(string(d.InputSchema), "at most 3 characters") || strings.Contains(string(d.InputSchema), "maxLength") {
		t.Errorf("listed %s, want the listed schema", d.InputSchema)
	}
	if res := r.Call(context.Background(), "listed", json.RawMessage(`{"text":"abcd"}`)); res.OK {
		t.Errorf("a call the input schema refuses passed: %s", res.JSON)
	}
	if res := r.Call(context.Background(), "listed", json.RawMessage(`{"text":"abc"}`)); !res.OK {
		t.Errorf("a good call failed: %s", res.JSON)
	}
	bad := tool
	bad.Name = "bad"
	bad.ListedSchema = json.RawMessage(`{"type":"object"}`)
	if _, err := r.Register(bad); err == nil {
		t.Error("a listed schema without additionalProperties:false was taken")
	}
}
