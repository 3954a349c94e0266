package tools

import (
	"encoding/json"
	"testing"
)

// A Schema checks arguments as a call does, with its pointers under the
// place the arguments were found.
func TestSchemaCheckLocatesProblems(t *testing.T) {
	raw := json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{"n":{"type":"integer","maximum":3}}}`)
	s, err := CompileSchema("step", raw, "bad_step")
	if err != nil {
		t.Fatal(err)
	}
	if te := s.Check(json.RawMessage(`{"n":2}`), "/ops/0/args"); te != nil {
		t.Fatalf("valid arguments refused: %v", te)
	}
	te := s.Check(json.RawMessage(`{"n":"x"}`), "/ops/0/args")
	if te == nil || te.Code != "bad_step" {
		t.Fatalf("got %v", te)
	}
	ps := te.Details.(map[string]any)["errors"].([]ArgumentProblem)
	if len(ps) != 1 || ps[0].Pointer != "/ops/0/args/n" || ps[0].Keyword != "/properties/n/type" {
		t.Fatalf("problems %+v", ps)
	}
	if want := summaryHead + " at /ops/0/args/n: " + ps[0].Message; te.Message != want {
		t.Fatalf("message %q, want %q", te.Message, want)
	}
	if _, err := CompileSchema("open", json.RawMessage(`{"type":"object"}`), ""); err == nil {
		t.Fatal("a schema without additionalProperties:false compiled")
	}
}
