package tools

import (
	"strings"
	"testing"
)

// unionSchema is a small discriminated union shaped like the Excalidraw
// apply arguments: "steps" items are picked by "kind" (put, set, drop),
// and a put's "shape" is itself picked by "form" (circle, square). Both
// shape branches share the "color" enum, which is therefore not a
// discriminator; "tag" is an anyOf of null and a string enum; "map"
// accepts any member name, so pointers with odd names can be checked;
// "either" is a union with no discriminator at all.
const unionSchema = `{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "steps": {"type": "array", "items": {"oneOf": [
      {"type": "object", "additionalProperties": false, "required": ["kind", "shape"], "properties": {
        "kind": {"const": "put"},
        "shape": {"oneOf": [
          {"type": "object", "additionalProperties": false, "required": ["form", "r"], "properties": {
            "form": {"const": "circle"}, "r": {"type": "number"},
            "color": {"type": "string", "enum": ["red", "blue"]}}},
          {"type": "object", "additionalProperties": false, "required": ["form", "side"], "properties": {
            "form": {"const": "square"}, "side": {"type": "number"},
            "color": {"type": "string", "enum": ["red", "blue"]}}}
        ]}}},
      {"type": "object", "additionalProperties": false, "required": ["kind", "key", "value"], "properties": {
        "kind": {"const": "set"}, "key": {"type": "string"}, "value": {"type": "number"},
        "tag": {"anyOf": [{"type": "null"}, {"type": "string", "enum": ["a", "b"]}]}}},
      {"type": "object", "additionalProperties": false, "required": ["kind", "key"], "properties": {
        "kind": {"const": "drop"}, "key": {"type": "string"}}}
    ]}},
    "map": {"type": "object", "additionalProperties": {"type": "number"}},
    "either": {"oneOf": [
      {"type": "object", "required": ["a", "b", "c"], "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}}},
      {"type": "object", "required": ["d", "e", "f"], "properties": {"d": {"type": "number"}, "e": {"type": "number"}, "f": {"type": "number"}}}
    ]}
  }
}`

// unionRegistry registers one tool taking unionSchema.
func unionRegistry(t *testing.T) *Registry { return schemaRegistry(t, unionSchema) }

// callUnion calls the union tool with args, which must fail, and checks
// the invariants every schema failure keeps: the message has at most two
// lines and stays short. It returns the error object and its problems.
func callUnion(t *testing.T, r *Registry, args string) (map[string]any, []map[string]any) {
	t.Helper()
	eo := errorObject(t, r.Call(t.Context(), "union", []byte(args)))
	if eo["code"] != CodeInvalidArguments {
		t.Fatalf("code = %v", eo["code"])
	}
	msg, _ := eo["message"].(string)
	if n := strings.Count(msg, "\n") + 1; n > 2 {
		t.Errorf("message has %d lines:\n%s", n, msg)
	}
	if len(msg) >= 300 {
		t.Errorf("message is %d bytes: %s", len(msg), msg)
	}
	return eo, problemsOf(t, eo)
}

// wantOneProblem asserts exactly one problem, at pointer, whose message
// contains every fragment, and that the summary message shows it.
func wantOneProblem(t *testing.T, eo map[string]any, problems []map[string]any, pointer string, fragments ...string) {
	t.Helper()
	if len(problems) != 1 {
		t.Fatalf("want exactly one problem, got %d: %v", len(problems), problems)
	}
	p := problems[0]
	if p["pointer"] != pointer {
		t.Fatalf("pointer = %q, want %q (%v)", p["pointer"], pointer, p)
	}
	msg, _ := p["message"].(string)
	for _, f := range fragments {
		if !strings.Contains(msg, f) {
			t.Errorf("problem message %q lacks %q", msg, f)
		}
	}
	summary, _ := eo["message"].(string)
	if !strings.Contains(summary, pointer+": "+msg) {
		t.Errorf("summary %q does not show %q", summary, pointer+": "+msg)
	}
}

func TestUnionWrongTypeInsideChosenBranches(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"steps":[{"kind":"put","shape":{"form":"circle","r":"5"}}]}`)
	wantOneProblem(t, eo, ps, "/steps/0/shape/r", "expected number, got string")
	if k := ps[0]["keyword"]; k != "/properties/steps/items/oneOf/0/properties/shape/oneOf/0/properties/r/type" {
		t.Errorf("keyword = %v", k)
	}
}

func TestUnionWrongDiscriminatorListsAllowedValues(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"steps":[{"kind":"putt","shape":{"form":"circle","r":5}}]}`)
	wantOneProblem(t, eo, ps, "/steps/0/kind", `must be one of "put", "set", "drop"`)
	if k := ps[0]["keyword"]; k != "/properties/steps/items/oneOf" {
		t.Errorf("keyword = %v, want the union's", k)
	}
}

func TestUnionWrongNestedDiscriminator(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"steps":[{"kind":"put","shape":{"form":"hexagon","r":5}}]}`)
	wantOneProblem(t, eo, ps, "/steps/0/shape/form", `must be one of "circle", "square"`)
}

func TestUnionMissingDiscriminator(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"steps":[{"key":"k"}]}`)
	wantOneProblem(t, eo, ps, "/steps/0/kind", "missing", `"put", "set", "drop"`)
}

func TestUnionMissingRequiredInChosenBranch(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"steps":[{"kind":"set","key":"k"}]}`)
	wantOneProblem(t, eo, ps, "/steps/0", `missing required property "value"`)
}

func TestUnionAdditionalPropertyInChosenBranch(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"steps":[{"kind":"drop","key":"k","colour":"red"}]}`)
	wantOneProblem(t, eo, ps, "/steps/0", `unknown property "colour"`)
}

// A const or enum every branch shares the same way is a field, not a
// discriminator: the branch is still picked by "form".
func TestUnionSharedEnumIsNotADiscriminator(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"steps":[{"kind":"put","shape":{"form":"square","side":1,"color":"green"}}]}`)
	wantOneProblem(t, eo, ps, "/steps/0/shape/color", `must be one of "red", "blue"`)
}

// The JSON type of the value picks between anyOf branches: a string is
// not what the null branch is about.
func TestUnionJSONTypeNarrowsBranches(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"steps":[{"kind":"set","key":"k","value":1,"tag":"c"}]}`)
	wantOneProblem(t, eo, ps, "/steps/0/tag", `must be one of "a", "b"`)

	eo, ps = callUnion(t, r, `{"steps":[{"kind":"set","key":"k","value":1,"tag":5}]}`)
	wantOneProblem(t, eo, ps, "/steps/0/tag", "expected null or string, got number")
}

// Problems in independent places are all kept: narrowing happens inside
// each union, not across the arguments.
func TestUnionIndependentProblemsAreAllReported(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"steps":[{"kind":"drop","key":1},{"kind":"sett","key":"k","value":1}]}`)
	if len(ps) != 2 || ps[0]["pointer"] != "/steps/0/key" || ps[1]["pointer"] != "/steps/1/kind" {
		t.Fatalf("problems = %v", ps)
	}
	msg := eo["message"].(string)
	if !strings.Contains(msg, "/steps/0/key: expected string, got number") ||
		!strings.Contains(msg, "\nand at /steps/1/kind: must be one of") {
		t.Fatalf("message = %q", msg)
	}
}

// Without a discriminator every branch's problems are alternatives; they
// are still reported, but capped, and the message counts the rest.
func TestUnionWithoutDiscriminatorIsCapped(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"either":{"a":1,"b":1,"c":1,"d":"x","e":"x","f":"x"}}`)
	if len(ps) != maxAlternativeProblems {
		t.Fatalf("reported %d problems, want %d: %v", len(ps), maxAlternativeProblems, ps)
	}
	if msg := eo["message"].(string); !strings.Contains(msg, "(and 4 more)") {
		t.Fatalf("message = %q", msg)
	}
}

// Pointers are RFC 6901: "~" and "/" escaped as ~0 and ~1, nothing else
// (the validator's own locations are also URL-escaped).
func TestProblemPointersAreRFC6901(t *testing.T) {
	r := unionRegistry(t)
	eo, ps := callUnion(t, r, `{"map":{"a b/c~d%":"x"}}`)
	wantOneProblem(t, eo, ps, "/map/a b~1c~0d%", "expected number, got string")
}

func TestSummaryStaysShortForHugeValues(t *testing.T) {
	r := unionRegistry(t)
	long := strings.Repeat("é", 400)
	eo, ps := callUnion(t, r, `{"steps":[{"kind":"drop","key":"k","`+long+`":1}],"`+long+`":2}`)
	if len(ps) != 2 {
		t.Fatalf("problems = %v", ps)
	}
	for _, p := range ps {
		if m := p["message"].(string); len(m) > maxProblemMessageBytes || !strings.HasPrefix(m, `unknown property "éé`) {
			t.Errorf("problem message is %d bytes: %.80s…", len(m), m)
		}
	}
	if msg := eo["message"].(string); !strings.Contains(msg, "…") {
		t.Errorf("long summary not clipped: %q", msg)
	}
}
