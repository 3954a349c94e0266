package build

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// compileInputSchema compiles InputSchema as a tool layer would.
func compileInputSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("mem://input.json", bytes.NewReader(InputSchema())); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem://input.json")
	if err != nil {
		t.Fatalf("InputSchema does not compile: %v", err)
	}
	return s
}

func validateJSON(s *jsonschema.Schema, text string) error {
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return err
	}
	return s.Validate(v)
}

// schemaCases are inputs with whether they are valid. builderOnly marks
// an input the schema lets through and only the builder refuses: a field
// the element input knows, on a type that does not take it (see
// InputSchema).
var schemaCases = []struct {
	in          string
	valid       bool
	builderOnly bool
}{
	{`{"type":"rectangle","x":0,"y":0}`, true, false},
	{`{"type":"rectangle","x":0,"y":0,"width":10,"height":20,"angle":1,"roundness":"sharp","label":{"text":"hi","fontFamily":"nunito"}}`, true, false},
	{`{"type":"rectangle","x":0,"y":0,"color":"red"}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"label":{"text":"hi","bold":true}}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"label":{}}`, false, false},
	{`{"type":"rectangle","x":0}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"width":0}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"width":-5}`, false, false},
	{`{"type":"rectangle","x":2e6,"y":0}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"id":"has space"}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"id":"ok_ID-1"}`, true, false},
	{`{"type":"rectangle","x":0,"y":0,"fillStyle":"dots"}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"roughness":3}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"opacity":101}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"strokeWidth":0}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"groupIds":["a","a"]}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"frameId":null,"link":null}`, true, false},
	{`{"type":"rectangle","x":0,"y":0,"points":[[0,0],[1,1]]}`, false, true},
	{`{"type":"ellipse","x":0,"y":0,"startElementId":"a"}`, false, true},
	{`{"type":"diamond","x":0,"y":0,"text":"no"}`, false, true},
	{`{"type":"text","x":0,"y":0,"text":"hi","fontFamily":5,"fontSize":36,"textAlign":"center","verticalAlign":"middle","width":100}`, true, false},
	{`{"type":"text","x":0,"y":0,"text":"hi","fontFamily":4}`, false, false},
	{`{"type":"text","x":0,"y":0,"text":"hi","fontFamily":"comic sans"}`, false, false},
	{`{"type":"text","x":0,"y":0,"text":""}`, false, false},
	{`{"type":"text","x":0,"y":0}`, false, false},
	{`{"type":"text","x":0,"y":0,"text":"hi","height":10}`, false, true},
	{`{"type":"text","x":0,"y":0,"text":"hi","label":{"text":"x"}}`, false, true},
	{`{"type":"arrow","startElementId":"a","endElementId":"b"}`, true, false},
	{`{"type":"arrow","x":0,"y":0,"points":[[0,0],[10,0]],"startArrowhead":null,"endArrowhead":"triangle_outline"}`, true, false},
	{`{"type":"arrow","x":0,"y":0,"endArrowhead":"dot"}`, false, false},
	{`{"type":"arrow","x":0,"y":0,"points":[[0,0]]}`, false, false},
	{`{"type":"arrow","x":0,"y":0,"points":[[0,0],[1,2,3]]}`, false, false},
	{`{"type":"arrow","x":0,"y":0,"label":{"text":"x","verticalAlign":"top"}}`, false, false},
	{`{"type":"arrow","x":0,"y":0,"angle":1}`, false, true},
	{`{"type":"line","x":0,"y":0,"startElementId":"a"}`, false, true},
	{`{"type":"line","x":0,"y":0,"width":-10,"height":5}`, true, false},
	{`{"type":"freedraw","x":0,"y":0,"points":[[0,0],[1,1]],"pressures":[0.5,0.5],"simulatePressure":false}`, true, false},
	{`{"type":"freedraw","x":0,"y":0,"points":[[0,0],[1,1]],"pressures":[2,0.5]}`, false, false},
	{`{"type":"freedraw","x":0,"y":0}`, false, false},
	{`{"type":"image","x":0,"y":0,"width":10,"height":10,"fileId":"f","scale":[-1,1]}`, true, false},
	{`{"type":"image","x":0,"y":0,"width":10,"height":10,"fileId":"f","scale":[2,1]}`, false, false},
	{`{"type":"image","x":0,"y":0,"width":10,"height":10}`, false, false},
	{`{"type":"text","x":0,"y":0,"text":"hi","width":0}`, false, false},
	{`{"type":"image","x":0,"y":0,"width":10,"height":-1,"fileId":"f"}`, false, false},
	{`{"type":"line","x":0,"y":0,"width":-10,"height":-5}`, true, false},
	{`{"type":"rectangle","x":0,"y":0,"label":{"text":"hi","verticalAlign":"top"}}`, true, false},
	{`{"type":"rectangle","x":0,"y":0,"label":{"text":"hi","fontFamily":4}}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"label":"hi"}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"strokeColor":""}`, false, false},
	{`{"type":"rectangle","x":0,"y":0,"id":"` + strings.Repeat("a", 65) + `"}`, false, false},
	{`{"type":"text","x":0,"y":0,"text":"hi","fontFamily":"Lilita One"}`, false, false},
	{`{"type":"arrow","startElementId":"a","endElementId":"b","endArrowhead":null}`, true, false},
	{`{"type":"arrow","x":0,"y":0,"endArrowhead":"dot"}`, false, false},
	{`{"type":"frame","x":0,"y":0}`, false, false},
	{`{"x":0,"y":0}`, false, false},
	{`[]`, false, false},
}

func TestInputSchemaCompilesAndClassifies(t *testing.T) {
	s := compileInputSchema(t)
	for _, c := range schemaCases {
		err := validateJSON(s, c.in)
		if want := c.valid || c.builderOnly; (err == nil) != want {
			t.Errorf("schema on %s: err=%v, want valid=%v", c.in, err, want)
		}
	}
}

// The builder's own validation must agree with the published schema, and
// refuse what it alone refuses with a message naming the field and the
// type, at the field's pointer.
func TestBuildAgreesWithSchema(t *testing.T) {
	for _, c := range schemaCases {
		_, err := decodeInput(0, json.RawMessage(c.in))
		if (err == nil) != c.valid {
			t.Errorf("decodeInput(%s): err=%v, want valid=%v", c.in, err, c.valid)
		}
		if err != nil {
			code := sceneerr.CodeOf(err)
			if code != sceneerr.InvalidOperation && code != sceneerr.UnsupportedElement {
				t.Errorf("decodeInput(%s): code %q", c.in, code)
			}
		}
		if c.builderOnly {
			var se *sceneerr.Error
			if !errors.As(err, &se) || !strings.Contains(se.Message, "unknown field") {
				t.Errorf("decodeInput(%s): %v, want the unknown field named", c.in, err)
				continue
			}
			if p, _ := se.Details["pointer"].(string); p == "" || !strings.Contains(se.Message, p[1:]) {
				t.Errorf("decodeInput(%s): pointer %q does not name the field: %v", c.in, p, err)
			}
		}
	}
}

func TestInputSchemaShape(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(InputSchema(), &root); err != nil {
		t.Fatal(err)
	}
	if root["$schema"] != schemaDialect || root["type"] != "object" {
		t.Fatalf("root: $schema=%v type=%v", root["$schema"], root["type"])
	}
	// Closed at the root: the fields are counted through $defs/fields.
	if root["unevaluatedProperties"] != false || root["$ref"] != "#/$defs/"+DefFields {
		t.Fatalf("root is not closed over $defs/fields: %v", root)
	}
	seen := map[string]bool{}
	for _, typ := range elementTypes {
		seen[branchKey(typ)] = true
	}
	if branches := root["oneOf"].([]any); len(branches) != len(seen) {
		t.Fatalf("%d branches, want %d", len(branches), len(seen))
	}
	defs := root["$defs"].(map[string]any)
	// Every field a type accepts has a value schema, so that the schema
	// refuses no field the builder takes.
	declared := map[string]bool{}
	for _, d := range []string{DefFields, "text"} {
		for name := range defs[d].(map[string]any)["properties"].(map[string]any) {
			declared[name] = true
		}
	}
	for _, typ := range elementTypes {
		for _, f := range fieldsFor(typ)[1:] {
			if !declared[f] {
				t.Errorf("%s: field %s has no schema in $defs", typ, f)
			}
		}
	}
	// Self-contained: every $ref points into its own $defs; and every
	// object schema that lists properties is closed.
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch n := v.(type) {
		case map[string]any:
			if ref, ok := n["$ref"].(string); ok {
				name, local := strings.CutPrefix(ref, "#/$defs/")
				if !local || defs[name] == nil {
					t.Errorf("%s: $ref %q does not point into $defs", path, ref)
				}
			}
			if n["type"] == "object" && n["properties"] != nil &&
				n["additionalProperties"] != false && n["unevaluatedProperties"] != false {
				t.Errorf("%s: open object", path)
			}
			for k, c := range n {
				walk(c, path+"/"+k)
			}
		case []any:
			for i, c := range n {
				walk(c, fmt.Sprintf("%s/%d", path, i))
			}
		}
	}
	walk(root, "")
}

func TestInputSchemaIsAFreshCopy(t *testing.T) {
	a := InputSchema()
	a[0] = 'X'
	if InputSchema()[0] == 'X' {
		t.Fatal("InputSchema returned shared bytes")
	}
}
