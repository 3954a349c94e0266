package agenttools

import (
	"encoding/json"
	"strconv"
	"testing"
)

// TestNoBooleanSubschemas walks every tool's inputSchema and fails on a
// bare boolean where a subschema stands (a property's schema, items, a
// branch of a union, a $defs member, ...): some strict MCP clients refuse
// a schema such as {"properties":{"verticalAlign":false}}. The one
// boolean allowed is false as additionalProperties or
// unevaluatedProperties, the closed object every client knows; a
// restriction is written as a closure that leaves the name out, or an
// enum, instead.
func TestNoBooleanSubschemas(t *testing.T) {
	for _, tool := range Tools(nil) {
		var root any
		if err := json.Unmarshal(tool.InputSchema, &root); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		for _, at := range booleanSubschemas(root, "") {
			t.Errorf("%s: a bare boolean subschema at %s", tool.Name, at)
		}
	}
}

// Keywords whose value is one subschema, a list of them, or a map of
// names to them (JSON Schema 2020-12, applicators and unevaluated*).
var (
	oneSubschema = map[string]bool{
		"additionalProperties": true, "unevaluatedProperties": true, "unevaluatedItems": true,
		"items": true, "contains": true, "propertyNames": true, "not": true,
		"if": true, "then": true, "else": true, "additionalItems": true,
	}
	listOfSubschemas = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
	mapOfSubschemas  = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true}
	// closures may be false: the closed object.
	closures = map[string]bool{"additionalProperties": true, "unevaluatedProperties": true}
)

// booleanSubschemas lists the pointers of the bare booleans standing as
// subschemas in schema s (at pointer at).
func booleanSubschemas(s any, at string) []string {
	obj, ok := s.(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	sub := func(v any, p string, closure bool) {
		if b, isBool := v.(bool); isBool {
			if !(closure && !b) {
				out = append(out, p)
			}
			return
		}
		out = append(out, booleanSubschemas(v, p)...)
	}
	for k, v := range obj {
		p := at + "/" + k
		switch {
		case oneSubschema[k]:
			sub(v, p, closures[k])
		case listOfSubschemas[k]:
			list, _ := v.([]any)
			for i, c := range list {
				sub(c, p+"/"+strconv.Itoa(i), false)
			}
		case mapOfSubschemas[k]:
			m, _ := v.(map[string]any)
			for name, c := range m {
				sub(c, p+"/"+name, false)
			}
		}
	}
	return out
}

// TestBooleanSubschemasFound: the walk finds what it must.
func TestBooleanSubschemasFound(t *testing.T) {
	var s any
	doc := `{"additionalProperties":false,"properties":{"a":{"oneOf":[{"properties":{"v":false}},true]},
		"b":{"items":{"additionalProperties":true}},"c":{"unevaluatedProperties":false}},"$defs":{"d":false}}`
	if err := json.Unmarshal([]byte(doc), &s); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, p := range booleanSubschemas(s, "") {
		got[p] = true
	}
	want := []string{"/properties/a/oneOf/0/properties/v", "/properties/a/oneOf/1", "/properties/b/items/additionalProperties", "/$defs/d"}
	for _, p := range want {
		if !got[p] {
			t.Errorf("not found: %s (found %v)", p, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("found %v, want %v", got, want)
	}
}
