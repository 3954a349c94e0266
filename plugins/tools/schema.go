package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// maxSchemaDepth bounds the JSON nesting of an input schema. Real argument
// schemas are shallow; the bound keeps pathological schemas away from the
// compiler's recursion and stays far below the MCP SDK's own 1000-level
// decode limit, which would otherwise make Server.AddTool panic.
const maxSchemaDepth = 100

// compiledSchema is an input schema that passed every registration check.
type compiledSchema struct {
	raw    json.RawMessage // compact copy of what the plugin supplied
	schema *jsonschema.Schema
	// fast is the same schema with its discriminated unions dispatched
	// (see compileFast), or nil when it has none.
	fast *jsonschema.Schema
}

// errNoRemoteRefs is what the schema loader answers for every URL: tool
// schemas must be self-contained, so a plugin can neither read local files
// through "$ref": "file:///..." nor make the host fetch URLs.
var errNoRemoteRefs = errors.New("external $ref is not allowed; tool schemas must be self-contained")

// compileSchema checks and compiles a tool's input schema. It never panics:
// the compiler is run under recover because a plugin-supplied schema is
// untrusted input.
func compileSchema(name string, raw json.RawMessage) (cs compiledSchema, err error) {
	if isBlankJSON(raw) {
		return cs, fmt.Errorf("%w: schema is empty", ErrInvalidSchema)
	}
	doc, err := decodeJSON(raw)
	if err != nil {
		return cs, fmt.Errorf("%w: not valid JSON: %v", ErrInvalidSchema, err)
	}
	if err := checkSchemaShape(doc); err != nil {
		return cs, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return cs, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
	}
	// The MCP SDK decodes schemas into float64-based maps and panics when
	// that fails (for example on a number such as 1e400); refuse those here.
	var generic map[string]any
	if err := json.Unmarshal(compact.Bytes(), &generic); err != nil {
		return cs, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
	}
	url := "mem://tools/" + name + ".json"
	s, err := compileSafely(url, compact.Bytes())
	if err != nil {
		return cs, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
	}
	fast, err := compileFast(url, compact.Bytes())
	if err != nil {
		// Unreachable: the same bytes compiled a moment ago.
		return cs, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
	}
	return compiledSchema{raw: compact.Bytes(), schema: s, fast: fast}, nil
}

func compileSafely(url string, raw []byte) (s *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("schema compiler panicked: %v", r)
		}
	}()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(string) (io.ReadCloser, error) { return nil, errNoRemoteRefs }
	if err := c.AddResource(url, bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// checkSchemaShape enforces the house rules that the JSON Schema
// meta-schema does not: an object root that rejects unknown properties,
// bounded depth, and x-mcp-header annotations the MCP SDK accepts.
func checkSchemaShape(doc any) error {
	if d := jsonDepth(doc); d > maxSchemaDepth {
		return fmt.Errorf("schema nesting depth %d exceeds %d", d, maxSchemaDepth)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return errors.New(`root must be a JSON object with "type": "object"`)
	}
	// The SDK insists on the literal string "object"; ["object"] or a
	// missing type would make mcp.Server.AddTool panic.
	if typ, _ := root["type"].(string); typ != "object" {
		return errors.New(`root must declare "type": "object"`)
	}
	if ap, ok := root["additionalProperties"].(bool); !ok || ap {
		return errors.New(`root must declare "additionalProperties": false`)
	}
	return checkHeaderAnnotations(root)
}

// jsonDepth returns the container nesting depth of a decoded JSON value.
func jsonDepth(v any) int {
	switch x := v.(type) {
	case map[string]any:
		d := 0
		for _, e := range x {
			d = max(d, jsonDepth(e))
		}
		return d + 1
	case []any:
		d := 0
		for _, e := range x {
			d = max(d, jsonDepth(e))
		}
		return d + 1
	default:
		return 0
	}
}

// checkHeaderAnnotations mirrors the MCP SDK's checks on "x-mcp-header"
// (SEP-2243), which it enforces with a panic in Server.AddTool. Rejecting
// such schemas here turns that panic into a registration error. The walk
// follows "properties" at any depth, as the SDK does, and is at least as
// strict as the SDK.
func checkHeaderAnnotations(root map[string]any) error {
	seen := make(map[string]bool)
	return walkHeaderAnnotations(root, "", seen)
}

func walkHeaderAnnotations(schema map[string]any, prefix string, seen map[string]bool) error {
	props, _ := schema["properties"].(map[string]any)
	for name, p := range props {
		prop, ok := p.(map[string]any)
		if !ok {
			continue
		}
		path := name
		if prefix != "" {
			path = prefix + "." + name
		}
		if h, present := prop["x-mcp-header"]; present {
			if err := checkHeaderAnnotation(path, prop, h, seen); err != nil {
				return err
			}
		}
		if err := walkHeaderAnnotations(prop, path, seen); err != nil {
			return err
		}
	}
	return nil
}

func checkHeaderAnnotation(path string, prop map[string]any, h any, seen map[string]bool) error {
	switch typ, _ := prop["type"].(string); typ {
	case "string", "integer", "boolean":
	default:
		return fmt.Errorf("property %q: x-mcp-header needs type string, integer or boolean", path)
	}
	header, _ := h.(string)
	if header == "" {
		return fmt.Errorf("property %q: x-mcp-header must be a non-empty string", path)
	}
	for _, c := range header {
		if !isHeaderTokenChar(c) {
			return fmt.Errorf("property %q: x-mcp-header %q is not an HTTP token", path, header)
		}
	}
	key := strings.ToLower(header)
	if seen[key] {
		return fmt.Errorf("property %q: duplicate x-mcp-header %q", path, header)
	}
	seen[key] = true
	return nil
}

// isHeaderTokenChar reports whether c is an RFC 9110 tchar.
func isHeaderTokenChar(c rune) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.ContainsRune("!#$%&'*+-.^_`|~", c)
}
