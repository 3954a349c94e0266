package loader

import (
	"reflect"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

const normalizeSchema = `{
	"type": "object",
	"additionalProperties": false,
	"properties": {
		"maxElements": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
		"ratio": {"type": "number", "minimum": 0, "maximum": 1},
		"mode": {"type": "string", "enum": ["fast", "safe"], "default": "safe"},
		"db": {
			"type": "object",
			"additionalProperties": false,
			"properties": {
				"host": {"type": "string", "default": "localhost"},
				"port": {"type": "integer", "default": 5432}
			}
		},
		"labels": {"type": "object", "additionalProperties": {"type": "string"}},
		"nodes": {"type": "array", "items": {
			"type": "object",
			"additionalProperties": false,
			"properties": {"w": {"type": "integer", "default": 1, "maximum": 5}}
		}},
		"opt": {"type": "object", "properties": {"x": {"type": "string"}}}
	}
}`

func normalizeWith(t *testing.T, schema string, v any) (any, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(zap.WarnLevel)
	n := &normalizer{schema: mustCompile(t, schema), log: zap.New(core), entry: "e1"}
	return n.normalize(v, "/plugins/0/config"), logs
}

func TestNormalizeFillsDefaultsIncludingNestedObjects(t *testing.T) {
	got, logs := normalizeWith(t, normalizeSchema, map[string]any{})
	want := map[string]any{
		"maxElements": int64(10),
		"mode":        "safe",
		"db":          map[string]any{"host": "localhost", "port": int64(5432)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
	if logs.Len() != 0 {
		t.Fatalf("filling defaults should not warn: %v", logs.All())
	}
}

func TestNormalizeKeepsGivenValuesAndFillsTheRest(t *testing.T) {
	got, _ := normalizeWith(t, normalizeSchema, map[string]any{
		"db":    map[string]any{"port": int64(6543)},
		"nodes": []any{map[string]any{}, map[string]any{"w": int64(3)}},
	})
	m := got.(map[string]any)
	if want := map[string]any{"host": "localhost", "port": int64(6543)}; !reflect.DeepEqual(m["db"], want) {
		t.Fatalf("db = %#v", m["db"])
	}
	if want := []any{map[string]any{"w": int64(1)}, map[string]any{"w": int64(3)}}; !reflect.DeepEqual(m["nodes"], want) {
		t.Fatalf("nodes = %#v", m["nodes"])
	}
}

func TestNormalizeNullObjectMeansDefaults(t *testing.T) {
	got, _ := normalizeWith(t, normalizeSchema, map[string]any{"db": nil, "mode": nil})
	m := got.(map[string]any)
	if want := map[string]any{"host": "localhost", "port": int64(5432)}; !reflect.DeepEqual(m["db"], want) {
		t.Fatalf("db = %#v", m["db"])
	}
	if m["mode"] != "safe" {
		t.Fatalf("mode = %#v", m["mode"])
	}
}

func TestNormalizeNullWithoutDefaultIsKeptForValidation(t *testing.T) {
	got, _ := normalizeWith(t, normalizeSchema, map[string]any{"ratio": nil})
	m := got.(map[string]any)
	if v, ok := m["ratio"]; !ok || v != nil {
		t.Fatalf("ratio = %#v, %v", v, ok)
	}
}

func TestNormalizeClampsWithWarning(t *testing.T) {
	got, logs := normalizeWith(t, normalizeSchema, map[string]any{
		"maxElements": int64(500),
		"ratio":       -0.5,
		"nodes":       []any{map[string]any{"w": int64(9)}},
	})
	m := got.(map[string]any)
	if m["maxElements"] != int64(100) || m["ratio"] != 0.0 {
		t.Fatalf("not clamped: %#v", m)
	}
	if w := m["nodes"].([]any)[0].(map[string]any)["w"]; w != int64(5) {
		t.Fatalf("array item not clamped: %#v", w)
	}
	wantPtrs := map[string]bool{
		"/plugins/0/config/maxElements": true,
		"/plugins/0/config/ratio":       true,
		"/plugins/0/config/nodes/0/w":   true,
	}
	if logs.Len() != len(wantPtrs) {
		t.Fatalf("got %d warnings: %v", logs.Len(), logs.All())
	}
	for _, e := range logs.All() {
		ctx := e.ContextMap()
		if ctx["entry"] != "e1" || !wantPtrs[ctx["pointer"].(string)] {
			t.Errorf("unexpected warning fields %v", ctx)
		}
	}
}

func TestNormalizeRemovesUnknownKeysWithWarning(t *testing.T) {
	got, logs := normalizeWith(t, normalizeSchema, map[string]any{
		"legacy": true,
		"db":     map[string]any{"host": "h", "timeout": int64(3)},
		"labels": map[string]any{"anything": "goes"},
		"opt":    map[string]any{"x": "1", "y": "kept: additionalProperties is unspecified but properties are listed"},
	})
	m := got.(map[string]any)
	if _, ok := m["legacy"]; ok {
		t.Fatal("legacy not removed")
	}
	if _, ok := m["db"].(map[string]any)["timeout"]; ok {
		t.Fatal("db.timeout not removed")
	}
	if m["labels"].(map[string]any)["anything"] != "goes" {
		t.Fatal("free-form map was pruned")
	}
	ptrs := map[string]bool{}
	for _, e := range logs.FilterMessage("removed config key the schema does not declare").All() {
		ptrs[e.ContextMap()["pointer"].(string)] = true
	}
	for _, p := range []string{"/plugins/0/config/legacy", "/plugins/0/config/db/timeout", "/plugins/0/config/opt/y"} {
		if !ptrs[p] {
			t.Errorf("no warning for %s (got %v)", p, ptrs)
		}
	}
}

func TestNormalizeRecursiveSchemaTerminates(t *testing.T) {
	schema := `{
		"$defs": {"node": {"type": "object", "properties": {
			"name": {"type": "string", "default": "n"},
			"child": {"$ref": "#/$defs/node"}
		}}},
		"$ref": "#/$defs/node"
	}`
	got, _ := normalizeWith(t, schema, map[string]any{})
	want := map[string]any{"name": "n"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

func TestNormalizeCreatesObjectsThroughNonRecursiveRefs(t *testing.T) {
	schema := `{
		"$defs": {"pool": {"type": "object", "properties": {"size": {"default": 4}}}},
		"type": "object",
		"properties": {"read": {"$ref": "#/$defs/pool"}, "write": {"$ref": "#/$defs/pool"}}
	}`
	got, _ := normalizeWith(t, schema, map[string]any{})
	want := map[string]any{"read": map[string]any{"size": int64(4)}, "write": map[string]any{"size": int64(4)}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

func TestNormalizeHostFieldsOmitEntry(t *testing.T) {
	core, logs := observer.New(zap.WarnLevel)
	n := &normalizer{schema: mustCompile(t, normalizeSchema), log: zap.New(core)}
	n.normalize(map[string]any{"legacy": 1}, "/host")
	e := logs.All()[0]
	if _, ok := e.ContextMap()["entry"]; ok {
		t.Fatalf("host warnings carry no entry: %v", e.ContextMap())
	}
	if e.ContextMap()["pointer"] != "/host/legacy" {
		t.Fatalf("pointer = %v", e.ContextMap()["pointer"])
	}
}
