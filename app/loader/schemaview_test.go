package loader

import "testing"

func mustCompile(t *testing.T, raw string) *compiledSchema {
	t.Helper()
	cs, err := compileSchema([]byte(raw))
	if err != nil {
		t.Fatalf("compileSchema: %v", err)
	}
	return cs
}

func TestViewFollowsLocalRefWithSiblings(t *testing.T) {
	cs := mustCompile(t, `{
		"$defs": {"limit": {"type": "integer", "minimum": 1, "maximum": 10, "default": 5}},
		"type": "object",
		"properties": {"n": {"$ref": "#/$defs/limit", "default": 7}}
	}`)
	root := cs.view(cs.doc)
	v := cs.view(root.properties["n"])
	if v == nil || v.min == nil || v.max == nil {
		t.Fatalf("ref not followed: %+v", v)
	}
	if v.min.i != 1 || v.max.i != 10 {
		t.Fatalf("bounds = %v..%v", v.min.i, v.max.i)
	}
	if got := jsonValue(v.def); got != int64(7) {
		t.Fatalf("sibling default should win, got %#v", got)
	}
}

func TestViewFoldsAllOfAndKnowsBranchKeys(t *testing.T) {
	cs := mustCompile(t, `{
		"type": "object",
		"properties": {"a": {"default": 1}},
		"allOf": [{"properties": {"b": {"default": 2}, "a": {"default": 99}}}],
		"oneOf": [{"properties": {"c": {}}}],
		"patternProperties": {"^x-": {}}
	}`)
	v := cs.view(cs.doc)
	if len(v.properties) != 2 {
		t.Fatalf("properties = %v", v.properties)
	}
	if d := jsonValue(v.properties["a"].(map[string]any)["default"]); d != int64(1) {
		t.Fatalf("own property should win over allOf, default = %#v", d)
	}
	for _, k := range []string{"a", "b", "c", "x-extra"} {
		if !v.allows(k) {
			t.Errorf("%q should be allowed", k)
		}
	}
	if v.allows("zzz") {
		t.Error("zzz should not be allowed")
	}
	if !v.prunes() {
		t.Error("a closed object with listed properties should prune")
	}
}

func TestViewDoesNotPruneOpenOrFreeFormObjects(t *testing.T) {
	cases := map[string]string{
		"free-form map":          `{"type": "object", "additionalProperties": {"type": "string"}}`,
		"explicitly open":        `{"type": "object", "properties": {"a": {}}, "additionalProperties": true}`,
		"no properties declared": `{"type": "object"}`,
		"unevaluated schema":     `{"type": "object", "properties": {"a": {}}, "unevaluatedProperties": {"type": "integer"}}`,
	}
	for name, raw := range cases {
		cs := mustCompile(t, raw)
		if cs.view(cs.doc).prunes() {
			t.Errorf("%s: should not prune", name)
		}
	}
}

func TestViewNonObjectSchemas(t *testing.T) {
	cs := mustCompile(t, `{"properties": {"t": true}}`)
	if cs.view(true) != nil {
		t.Fatal("boolean schema has no view")
	}
	v := cs.view(cs.doc)
	if cs.view(v.properties["t"]) != nil {
		t.Fatal("true has no view")
	}
}

func TestViewTypes(t *testing.T) {
	cs := mustCompile(t, `{"properties": {
		"o": {"type": "object"},
		"on": {"type": ["object", "null"]},
		"implicit": {"properties": {"x": {}}},
		"s": {"type": "string"}
	}}`)
	v := cs.view(cs.doc)
	get := func(n string) *schemaView { return cs.view(v.properties[n]) }
	if !get("o").describesObject() || get("o").acceptsNull() {
		t.Error("o")
	}
	if !get("on").describesObject() || !get("on").acceptsNull() {
		t.Error("on")
	}
	if !get("implicit").describesObject() || !get("implicit").acceptsNull() {
		t.Error("implicit")
	}
	if get("s").describesObject() {
		t.Error("s")
	}
}

func TestLookupPointer(t *testing.T) {
	doc := map[string]any{
		"$defs": map[string]any{"a/b": map[string]any{"k": 1}, "m~n": map[string]any{"k": 2}},
		"list":  []any{map[string]any{"k": 3}},
	}
	for ref, want := range map[string]int{"#/$defs/a~1b": 1, "#/$defs/m~0n": 2, "#/list/0": 3} {
		m, ok := lookupPointer(doc, ref)
		if !ok || m["k"] != want {
			t.Errorf("%s: got %v %v", ref, m, ok)
		}
	}
	for _, ref := range []string{"#/list/1", "#/list/x", "#anchor", "other.json#/a", "#/$defs/missing"} {
		if _, ok := lookupPointer(doc, ref); ok {
			t.Errorf("%s resolved", ref)
		}
	}
	if m, ok := lookupPointer(doc, "#"); !ok || m == nil {
		t.Error("# should resolve to the root")
	}
}
