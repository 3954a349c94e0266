package engine

import (
	"encoding/json"
	"testing"
)

// Every object schema in the tree must be closed (a union is closed by
// its branches).
func TestOperationSchemaClosed(t *testing.T) {
	var root map[string]any
	if err := json.Unmarshal(OperationSchema(), &root); err != nil {
		t.Fatal(err)
	}
	branches := root["oneOf"].([]any)
	if len(branches) != 3 {
		t.Fatalf("%d branches", len(branches))
	}
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch n := v.(type) {
		case map[string]any:
			_, union := n["oneOf"]
			if n["type"] == "object" && !union && n["additionalProperties"] != false {
				t.Errorf("%s: open object", path)
			}
			for k, c := range n {
				walk(c, path+"/"+k)
			}
		case []any:
			for _, c := range n {
				walk(c, path+"/*")
			}
		}
	}
	walk(root, "")
	patch := branches[1].(map[string]any)["properties"].(map[string]any)["patch"].(map[string]any)["properties"].(map[string]any)
	if len(patch) != len(patchKeys()) {
		t.Fatalf("schema has %d patch fields, service %d", len(patch), len(patchKeys()))
	}
	for _, k := range patchKeys() {
		if patch[k] == nil {
			t.Errorf("patch field %s missing from schema", k)
		}
	}
}
