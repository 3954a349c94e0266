package loader

import (
	"strings"
	"testing"
)

func TestCompileSchemaCachesByContent(t *testing.T) {
	raw := []byte(`{"type":"object","properties":{"a":{"type":"integer"}}}`)
	a, err := compileSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	b, err := compileSchema(append([]byte(nil), raw...))
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatal("equal schema bytes compiled twice")
	}
}

func TestCompileSchemaValidates(t *testing.T) {
	cs, err := compileSchema([]byte(`{"type":"object","properties":{"a":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := cs.validator.Validate(map[string]any{"a": int64(1)}); err != nil {
		t.Fatalf("valid value rejected: %v", err)
	}
	if err := cs.validator.Validate(map[string]any{"a": "x"}); err == nil {
		t.Fatal("invalid value accepted")
	}
}

func TestCompileSchemaRejectsBrokenSchemas(t *testing.T) {
	cases := map[string]string{
		"not json":     `{"type":`,
		"bad keyword":  `{"type": 5}`,
		"external ref": `{"$ref": "https://example.com/other.json"}`,
	}
	for name, raw := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := compileSchema([]byte(raw)); err == nil {
				t.Fatal("expected an error")
			}
		})
	}
}

func TestCompileSchemaExternalRefMessage(t *testing.T) {
	_, err := compileSchema([]byte(`{"$ref": "https://example.com/x.json"}`))
	if err == nil || !strings.Contains(err.Error(), "self-contained") {
		t.Fatalf("got %v", err)
	}
}
