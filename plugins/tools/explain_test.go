package tools

import (
	"strings"
	"testing"
)

// refSchema is shaped like the Excalidraw element input: field values are
// declared once under $defs and referred to with $ref beside other
// keywords; an item is closed with unevaluatedProperties:false; the union
// of the typed items (picked by "kind") is nested, at the same object,
// inside a union with a branch that takes any other kind; a branch takes
// a field of "sub" out with a false schema. "loose" is a union whose
// branches are only $refs.
const refSchema = `{
  "type": "object",
  "additionalProperties": false,
  "properties": {
    "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
    "loose": {"oneOf": [{"$ref": "#/$defs/num"}, {"$ref": "#/$defs/str"}]}
  },
  "$defs": {
    "item": {
      "type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}},
      "oneOf": [
        {"$ref": "#/$defs/fields", "unevaluatedProperties": false, "oneOf": [
          {"properties": {"kind": {"const": "dot"}}, "required": ["kind", "n"]},
          {"properties": {"kind": {"const": "bar"}, "sub": {"properties": {"b": false}}}, "required": ["kind"]}
        ]},
        {"properties": {"kind": {"not": {"enum": ["dot", "bar"]}}}}
      ]
    },
    "fields": {"$ref": "#/$defs/subFields", "properties": {
      "n": {"type": "number"},
      "color": {"enum": ["red", "blue"]},
      "sub": {"type": "object", "$ref": "#/$defs/subFields", "properties": {"a": {}, "b": {}}, "additionalProperties": false}
    }},
    "subFields": {"properties": {"a": {"type": "string"}, "b": {"type": "string"}}},
    "num": {"type": "number"},
    "str": {"type": "string"}
  }
}`

// schemaRegistry registers one tool, "union", taking schema.
func schemaRegistry(t *testing.T, schema string) *Registry {
	t.Helper()
	r := NewRegistry(nil)
	tool := echoTool("union")
	tool.InputSchema = []byte(schema)
	mustRegister(t, r, tool)
	return r
}

func refRegistry(t *testing.T) *Registry { return schemaRegistry(t, refSchema) }

// A wrong value in a field declared through $ref is one problem: the
// members the failed $ref declares are not also unknown.
func TestRefWrongTypeIsOneProblem(t *testing.T) {
	r := refRegistry(t)
	eo, ps := callUnion(t, r, `{"items":[{"kind":"dot","n":"1","a":"x"}]}`)
	wantOneProblem(t, eo, ps, "/items/0/n", "expected number, got string")
	if k := ps[0]["keyword"]; k != "/properties/items/items/$ref/oneOf/0/$ref/properties/n/type" {
		t.Errorf("keyword = %v", k)
	}
}

// A member no schema declares is reported at its object, as
// additionalProperties:false reports it.
func TestUnevaluatedPropertyIsUnknownAtItsObject(t *testing.T) {
	r := refRegistry(t)
	eo, ps := callUnion(t, r, `{"items":[{"kind":"dot","n":1,"colour":"red","shade":1}]}`)
	wantOneProblem(t, eo, ps, "/items/0", `unknown properties "colour" (did you mean "color"?), "shade"`)
	if k, _ := ps[0]["keyword"].(string); !strings.HasSuffix(k, "/oneOf/0/unevaluatedProperties") {
		t.Errorf("keyword = %v", k)
	}
}

// An enum field only one branch constrains (through its $ref) is not a
// discriminator, however the tie-breaks fall: "kind" still picks.
func TestFieldOfOneBranchIsNotADiscriminator(t *testing.T) {
	r := refRegistry(t)
	eo, ps := callUnion(t, r, `{"items":[{"kind":"dot","n":1,"color":"green"}]}`)
	wantOneProblem(t, eo, ps, "/items/0/color", `must be one of "red", "blue"`)
}

// A union nested at the same object counts as rejecting a property only
// where all its branches do, so the outer union still finds its branch.
func TestNestedUnionAtTheSameObject(t *testing.T) {
	r := refRegistry(t)
	eo, ps := callUnion(t, r, `{"items":[{"kind":"dot"}]}`)
	wantOneProblem(t, eo, ps, "/items/0", `missing required property "n"`)
}

func TestFalseSchemaNamesTheMember(t *testing.T) {
	r := refRegistry(t)
	eo, ps := callUnion(t, r, `{"items":[{"kind":"bar","sub":{"b":"x"}}]}`)
	wantOneProblem(t, eo, ps, "/items/0/sub/b", `"b" is not allowed here`)

	eo, ps = callUnion(t, r, `{"items":[{"kind":"bar","sub":{"c":"x"}}]}`)
	wantOneProblem(t, eo, ps, "/items/0/sub", `unknown property "c"`)
}

// An unknown member and a wrong value are two problems.
func TestUnknownMemberBesideAWrongValue(t *testing.T) {
	r := refRegistry(t)
	_, ps := callUnion(t, r, `{"items":[{"kind":"dot","n":1,"colour":1,"color":"green"}]}`)
	if len(ps) != 2 || ps[0]["pointer"] != "/items/0" || ps[1]["pointer"] != "/items/0/color" {
		t.Fatalf("problems = %v", ps)
	}
}

// The branch that takes any other kind lets it through.
func TestNestedUnionOtherBranch(t *testing.T) {
	r := refRegistry(t)
	if res := r.Call(t.Context(), "union", []byte(`{"items":[{"kind":"zzz","whatever":1}]}`)); !res.OK {
		t.Fatalf("call failed: %s", res.JSON)
	}
}

// Branches that are only a $ref to a typed schema are narrowed by type.
func TestRefBranchesNarrowByType(t *testing.T) {
	r := refRegistry(t)
	eo, ps := callUnion(t, r, `{"loose":true}`)
	wantOneProblem(t, eo, ps, "/loose", "expected number or string, got boolean")
}
