package loader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Limits that keep a hostile or broken file (an alias "billion laughs", a
// runaway generator) from exhausting memory while it is converted.
const (
	maxYAMLDepth  = 256
	maxYAMLValues = 1 << 20
)

// yamlDoc is the file converted to the JSON data model, because that is the
// model JSON Schema validates and plugins receive. lines maps the JSON pointer
// of every value written in the file to its line, so problems can cite lines.
type yamlDoc struct {
	value any
	lines map[string]int
}

// decodeYAML converts one YAML document into JSON-compatible values:
// map[string]any, []any, string, int64, float64, bool and nil. It walks the
// node tree itself instead of decoding into any so that it can reject what
// JSON cannot express (non-string keys, NaN, custom tags) with a line number,
// catch duplicate keys, and record where each value came from.
func decodeYAML(data []byte) (*yamlDoc, []Problem) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return &yamlDoc{lines: map[string]int{}}, nil // empty file: nothing configured
		}
		return nil, []Problem{syntaxProblem(err)}
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, []Problem{syntaxProblem(err)}
	default:
		return nil, []Problem{{Line: extra.Line, Message: "the file must hold a single YAML document; found another one"}}
	}
	c := &yamlConverter{lines: make(map[string]int)}
	v := c.convert(&root, "", 0)
	if len(c.problems) > 0 {
		return nil, c.problems
	}
	return &yamlDoc{value: v, lines: c.lines}, nil
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): `)

// syntaxProblem turns the YAML library's error into a Problem, lifting the
// line number out of the message into Problem.Line.
func syntaxProblem(err error) Problem {
	msg := err.Error()
	line := 0
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	return Problem{Line: line, Message: "YAML syntax error: " + msg}
}

type yamlConverter struct {
	lines    map[string]int
	problems []Problem
	values   int
}

func (c *yamlConverter) fail(ptr string, line int, format string, args ...any) {
	c.problems = append(c.problems, Problem{Pointer: ptr, Line: line, Message: fmt.Sprintf(format, args...)})
}

func (c *yamlConverter) convert(n *yaml.Node, ptr string, depth int) any {
	if depth > maxYAMLDepth {
		c.fail(ptr, n.Line, "nesting is deeper than %d levels", maxYAMLDepth)
		return nil
	}
	c.values++
	if c.values > maxYAMLValues {
		if c.values == maxYAMLValues+1 {
			c.fail(ptr, n.Line, "the document expands to more than %d values (alias expansion?)", maxYAMLValues)
		}
		return nil
	}
	// First writer wins: for an alias this keeps the line where the alias is
	// used rather than where the anchor was defined.
	if _, ok := c.lines[ptr]; !ok {
		c.lines[ptr] = n.Line
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return c.convert(n.Content[0], ptr, depth+1)
	case yaml.AliasNode:
		return c.convert(n.Alias, ptr, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, item := range n.Content {
			out = append(out, c.convert(item, indexPointer(ptr, i), depth+1))
		}
		return out
	case yaml.MappingNode:
		return c.mapping(n, ptr, depth)
	case yaml.ScalarNode:
		return c.scalar(n, ptr)
	}
	c.fail(ptr, n.Line, "unsupported YAML node")
	return nil
}

func (c *yamlConverter) mapping(n *yaml.Node, ptr string, depth int) map[string]any {
	out := make(map[string]any, len(n.Content)/2)
	keyLines := make(map[string]int, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		key, ok := c.key(k, ptr)
		if !ok {
			continue
		}
		if first, dup := keyLines[key]; dup {
			c.fail(childPointer(ptr, key), k.Line, "duplicate key %q (first defined on line %d)", key, first)
			continue
		}
		keyLines[key] = k.Line
		out[key] = c.convert(v, childPointer(ptr, key), depth+1)
	}
	// Merge keys (<<: *base) fill in only what the mapping does not set
	// itself, and earlier merged mappings win over later ones.
	for _, m := range merges {
		c.merge(out, m, ptr, depth)
	}
	return out
}

func (c *yamlConverter) merge(out map[string]any, v *yaml.Node, ptr string, depth int) {
	target := v
	if target.Kind == yaml.AliasNode {
		target = target.Alias
	}
	switch target.Kind {
	case yaml.MappingNode:
		src, _ := c.convert(target, ptr, depth+1).(map[string]any)
		for k, val := range src {
			if _, set := out[k]; !set {
				out[k] = val
			}
		}
	case yaml.SequenceNode:
		for _, item := range target.Content {
			c.merge(out, item, ptr, depth+1)
		}
	default:
		c.fail(ptr, v.Line, "a merge key (<<) must refer to a mapping or a list of mappings")
	}
}

func (c *yamlConverter) key(k *yaml.Node, ptr string) (string, bool) {
	if k.Kind == yaml.AliasNode {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		c.fail(ptr, k.Line, "mapping keys must be strings, not a %s", kindName(k.Kind))
		return "", false
	}
	if tag := k.ShortTag(); tag != "!!str" {
		c.fail(ptr, k.Line, "mapping key %q must be a string but reads as %s; quote it", k.Value, strings.TrimPrefix(tag, "!!"))
		return "", false
	}
	return k.Value, true
}

func (c *yamlConverter) scalar(n *yaml.Node, ptr string) any {
	switch tag := n.ShortTag(); tag {
	case "!!null":
		return nil
	case "!!str", "!!timestamp", "!!binary":
		// Timestamps and binary stay as written: the plugin's schema (format:
		// date-time, contentEncoding) and the plugin itself interpret them.
		return n.Value
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			c.fail(ptr, n.Line, "invalid boolean %q", n.Value)
		}
		return b
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return i
		}
		var u uint64
		if err := n.Decode(&u); err == nil {
			return float64(u)
		}
		c.fail(ptr, n.Line, "integer %q is out of range", n.Value)
		return nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			c.fail(ptr, n.Line, "invalid number %q", n.Value)
			return nil
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			c.fail(ptr, n.Line, "%s is not a finite number and cannot be represented in JSON", n.Value)
			return nil
		}
		return f
	default:
		c.fail(ptr, n.Line, "unsupported YAML tag %s", tag)
		return nil
	}
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.AliasNode:
		return "alias"
	case yaml.DocumentNode:
		return "document"
	}
	return "scalar"
}
