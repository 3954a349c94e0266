package tools

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const okSchema = `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`

func TestCompileSchemaRejects(t *testing.T) {
	deep := `{"type":"object","additionalProperties":false,"properties":{"a":` + strings.Repeat(`{"type":"array","items":`, 120) + `{}` + strings.Repeat(`}`, 120) + `}}`
	cases := map[string]string{
		"empty":                   ``,
		"whitespace":              " \n",
		"invalid json":            `{"type":`,
		"trailing data":           `{"type":"object","additionalProperties":false} {}`,
		"array root":              `[]`,
		"boolean schema":          `true`,
		"no type":                 `{"additionalProperties":false}`,
		"string root type":        `{"type":"string"}`,
		"type as array":           `{"type":["object"],"additionalProperties":false}`,
		"missing additionalProps": `{"type":"object"}`,
		"additionalProps true":    `{"type":"object","additionalProperties":true}`,
		"additionalProps schema":  `{"type":"object","additionalProperties":{"type":"string"}}`,
		"does not compile":        `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"nope"}}}`,
		"bad regex":               `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","pattern":"("}}}`,
		"bad minimum":             `{"type":"object","additionalProperties":false,"properties":{"a":{"minimum":"x"}}}`,
		"unresolvable ref":        `{"type":"object","additionalProperties":false,"properties":{"a":{"$ref":"#/$defs/missing"}}}`,
		"file ref":                `{"type":"object","additionalProperties":false,"properties":{"a":{"$ref":"file:///etc/passwd"}}}`,
		"http ref":                `{"type":"object","additionalProperties":false,"properties":{"a":{"$ref":"https://example.com/s.json"}}}`,
		"unknown $schema":         `{"$schema":"https://example.com/meta","type":"object","additionalProperties":false}`,
		"float overflow":          `{"type":"object","additionalProperties":false,"properties":{"a":{"maximum":1e400}}}`,
		"too deep":                deep,
		"header on object":        `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"object","x-mcp-header":"A"}}}`,
		"header not string":       `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","x-mcp-header":1}}}`,
		"header empty":            `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","x-mcp-header":""}}}`,
		"header bad token":        `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","x-mcp-header":"a b"}}}`,
		"header duplicate":        `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","x-mcp-header":"X"},"b":{"type":"object","properties":{"c":{"type":"integer","x-mcp-header":"x"}}}}}`,
	}
	for name, raw := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := compileSchema("t", json.RawMessage(raw))
			if !errors.Is(err, ErrInvalidSchema) {
				t.Fatalf("compileSchema(%s) = %v, want ErrInvalidSchema", raw, err)
			}
		})
	}
}

func TestCompileSchemaAccepts(t *testing.T) {
	cases := map[string]string{
		"basic":          okSchema,
		"empty object":   `{"type":"object","additionalProperties":false}`,
		"pretty printed": "{\n  \"type\": \"object\",\n  \"additionalProperties\": false\n}",
		"defs and ref":   `{"type":"object","additionalProperties":false,"$defs":{"p":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/p"}}}`,
		"own $id":        `{"$id":"https://example.com/x.json","type":"object","additionalProperties":false,"properties":{"a":{"type":"integer"}}}`,
		"draft 7":        `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false}`,
		"header ok":      `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","x-mcp-header":"Region"}}}`,
		"big integer":    `{"type":"object","additionalProperties":false,"properties":{"a":{"maximum":123456789012345678901234567890}}}`,
	}
	for name, raw := range cases {
		t.Run(name, func(t *testing.T) {
			cs, err := compileSchema("t", json.RawMessage(raw))
			if err != nil {
				t.Fatalf("compileSchema: %v", err)
			}
			if cs.schema == nil || !json.Valid(cs.raw) || strings.ContainsAny(string(cs.raw), "\n ") {
				t.Fatalf("bad result: %q", cs.raw)
			}
		})
	}
}

func TestJSONDepth(t *testing.T) {
	v, _ := decodeJSON([]byte(`{"a":[{"b":1}],"c":2}`))
	if d := jsonDepth(v); d != 3 {
		t.Fatalf("depth = %d, want 3", d)
	}
	if d := jsonDepth("x"); d != 0 {
		t.Fatalf("scalar depth = %d", d)
	}
}

// FuzzCompileSchema checks that no input makes registration panic and that
// every accepted schema is kept as compact, valid JSON. (That the MCP SDK
// accepts every schema the registry does is mcpserve's fuzz test.)
func FuzzCompileSchema(f *testing.F) {
	f.Add(okSchema)
	f.Add(`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","x-mcp-header":"A"}}}`)
	f.Add(`{"type":"object","additionalProperties":false,"$defs":{"a":{"$ref":"#/$defs/a"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`)
	f.Add(`{"type":"object","additionalProperties":false,"properties":{"a":{"pattern":"\\p{L"}}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		cs, err := compileSchema("fuzz", json.RawMessage(raw))
		if err != nil {
			return
		}
		if cs.schema == nil || !json.Valid(cs.raw) {
			t.Fatalf("accepted schema %q kept as %q", raw, cs.raw)
		}
	})
}
