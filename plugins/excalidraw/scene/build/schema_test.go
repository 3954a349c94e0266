package build

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
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

// schemaCases are inputs with whether they are valid for the schema.
var schemaCases = []struct {
	in    string
	valid bool
}{
	{`{"type":"rectangle","x":0,"y":0}`, true},
	{`{"type":"rectangle","x":0,"y":0,"width":10,"height":20,"angle":1,"roundness":"sharp","label":{"text":"hi","fontFamily":"nunito"}}`, true},
	{`{"type":"rectangle","x":0,"y":0,"color":"red"}`, false},
	{`{"type":"rectangle","x":0,"y":0,"label":{"text":"hi","bold":true}}`, false},
	{`{"type":"rectangle","x":0,"y":0,"label":{}}`, false},
	{`{"type":"rectangle","x":0}`, false},
	{`{"type":"rectangle","x":0,"y":0,"width":0}`, false},
	{`{"type":"rectangle","x":0,"y":0,"width":-5}`, false},
	{`{"type":"rectangle","x":2e6,"y":0}`, false},
	{`{"type":"rectangle","x":0,"y":0,"id":"has space"}`, false},
	{`{"type":"rectangle","x":0,"y":0,"id":"ok_ID-1"}`, true},
	{`{"type":"rectangle","x":0,"y":0,"fillStyle":"dots"}`, false},
	{`{"type":"rectangle","x":0,"y":0,"roughness":3}`, false},
	{`{"type":"rectangle","x":0,"y":0,"opacity":101}`, false},
	{`{"type":"rectangle","x":0,"y":0,"strokeWidth":0}`, false},
	{`{"type":"rectangle","x":0,"y":0,"groupIds":["a","a"]}`, false},
	{`{"type":"rectangle","x":0,"y":0,"frameId":null,"link":null}`, true},
	{`{"type":"rectangle","x":0,"y":0,"points":[[0,0],[1,1]]}`, false},
	{`{"type":"ellipse","x":0,"y":0,"startElementId":"a"}`, false},
	{`{"type":"diamond","x":0,"y":0,"text":"no"}`, false},
	{`{"type":"text","x":0,"y":0,"text":"hi","fontFamily":5,"fontSize":36,"textAlign":"center","verticalAlign":"middle","width":100}`, true},
	{`{"type":"text","x":0,"y":0,"text":"hi","fontFamily":4}`, false},
	{`{"type":"text","x":0,"y":0,"text":"hi","fontFamily":"comic sans"}`, false},
	{`{"type":"text","x":0,"y":0,"text":""}`, false},
	{`{"type":"text","x":0,"y":0}`, false},
	{`{"type":"text","x":0,"y":0,"text":"hi","height":10}`, false},
	{`{"type":"text","x":0,"y":0,"text":"hi","label":{"text":"x"}}`, false},
	{`{"type":"arrow","startElementId":"a","endElementId":"b"}`, true},
	{`{"type":"arrow","x":0,"y":0,"points":[[0,0],[10,0]],"startArrowhead":null,"endArrowhead":"triangle_outline"}`, true},
	{`{"type":"arrow","x":0,"y":0,"endArrowhead":"dot"}`, false},
	{`{"type":"arrow","x":0,"y":0,"points":[[0,0]]}`, false},
	{`{"type":"arrow","x":0,"y":0,"points":[[0,0],[1,2,3]]}`, false},
	{`{"type":"arrow","x":0,"y":0,"label":{"text":"x","verticalAlign":"top"}}`, false},
	{`{"type":"arrow","x":0,"y":0,"angle":1}`, false},
	{`{"type":"line","x":0,"y":0,"startElementId":"a"}`, false},
	{`{"type":"line","x":0,"y":0,"width":-10,"height":5}`, true},
	{`{"type":"freedraw","x":0,"y":0,"points":[[0,0],[1,1]],"pressures":[0.5,0.5],"simulatePressure":false}`, true},
	{`{"type":"freedraw","x":0,"y":0,"points":[[0,0],[1,1]],"pressures":[2,0.5]}`, false},
	{`{"type":"freedraw","x":0,"y":0}`, false},
	{`{"type":"image","x":0,"y":0,"width":10,"height":10,"fileId":"f","scale":[-1,1]}`, true},
	{`{"type":"image","x":0,"y":0,"width":10,"height":10,"fileId":"f","scale":[2,1]}`, false},
	{`{"type":"image","x":0,"y":0,"width":10,"height":10}`, false},
	{`{"type":"frame","x":0,"y":0}`, false},
	{`{"x":0,"y":0}`, false},
	{`[]`, false},
}

func TestInputSchemaCompilesAndClassifies(t *testing.T) {
	s := compileInputSchema(t)
	for _, c := range schemaCases {
		err := validateJSON(s, c.in)
		if (err == nil) != c.valid {
			t.Errorf("schema on %s: err=%v, want valid=%v", c.in, err, c.valid)
		}
	}
}

// The builder's own validation must agree with the published schema.
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
	branches := root["oneOf"].([]any)
	if len(branches) != len(elementTypes) {
		t.Fatalf("%d branches, want %d", len(branches), len(elementTypes))
	}
	for _, b := range branches {
		br := b.(map[string]any)
		if br["additionalProperties"] != false || br["type"] != "object" {
			t.Errorf("branch %v is not a closed object", br["title"])
		}
		for name, p := range br["properties"].(map[string]any) {
			if _, ok := p.(map[string]any)["description"]; !ok {
				t.Errorf("branch %v: property %s has no description", br["title"], name)
			}
		}
	}
	if strings.Contains(string(InputSchema()), "$ref") {
		t.Error("schema must be self-contained (no $ref)")
	}
}

func TestInputSchemaIsAFreshCopy(t *testing.T) {
	a := InputSchema()
	a[0] = 'X'
	if InputSchema()[0] == 'X' {
		t.Fatal("InputSchema returned shared bytes")
	}
}
