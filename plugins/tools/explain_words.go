package tools

import (
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dshgo/dsh/internal/jsonpointer"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// maxProblemMessageBytes caps one problem's message; an agent-chosen
// member name or a huge enum must not make the error huge.
const maxProblemMessageBytes = 400

// maxListedNames caps the property names one message lists.
const maxListedNames = 5

// leaf turns one failed keyword into a problem, with the pointers in
// RFC 6901 syntax and the message in plain words.
func (x *explainer) leaf(e *jsonschema.ValidationError) ArgumentProblem {
	return ArgumentProblem{
		Pointer: rfc6901(e.InstanceLocation),
		Keyword: rfc6901(e.KeywordLocation),
		Message: clip(x.words(e), maxProblemMessageBytes),
	}
}

// words says what is wrong for the keywords agents hit most, computing
// the details from the schema and the arguments; for any other keyword,
// or when a lookup fails, it keeps the library's message.
func (x *explainer) words(e *jsonschema.ValidationError) string {
	kw := lastToken(e.KeywordLocation)
	switch kw {
	case "type":
		return strings.Replace(e.Message, ", but got ", ", got ", 1)
	case "const", "enum":
		if allowed := fixedValues(x.schemaOf(e, kw)); allowed != nil {
			return mustBe(allowed)
		}
	case "required":
		if names := x.missingProperties(e); len(names) > 0 {
			return "missing required " + plural(len(names), "property", "properties") + " " + listNames(names)
		}
	case "additionalProperties":
		if names := x.unknownProperties(e); len(names) > 0 {
			return "unknown " + plural(len(names), "property", "properties") + " " + listUnknown(names, declaredNames(x.schemaOf(e, kw)))
		}
	}
	if x.refusesAll(e) {
		// A false schema, e.g. "properties": {"verticalAlign": false}
		// where a branch takes a field out.
		if _, tok := splitLast(e.InstanceLocation); tok != "" {
			return renderValue(unescapeToken(tok)) + " is not allowed here"
		}
		return "not allowed here"
	}
	return e.Message
}

// refusesAll reports whether e comes from a false schema, which the
// library reports at the schema's own location.
func (x *explainer) refusesAll(e *jsonschema.ValidationError) bool {
	if x.index == nil {
		x.index = indexSchemas(x.root)
	}
	s := x.index[e.AbsoluteKeywordLocation]
	return s != nil && s.Always != nil && !*s.Always
}

// missingProperties lists, in schema order, the required properties the
// object at a failed "required" keyword lacks.
func (x *explainer) missingProperties(e *jsonschema.ValidationError) []string {
	s := x.schemaOf(e, "required")
	obj, ok := x.object(e.InstanceLocation)
	if s == nil || !ok {
		return nil
	}
	var out []string
	for _, name := range s.Required {
		if _, present := obj[name]; !present {
			out = append(out, name)
		}
	}
	return out
}

// unknownProperties lists, sorted, the members of the object at a failed
// "additionalProperties": false that neither properties nor
// patternProperties of the same schema declare (the members the keyword
// applies to).
func (x *explainer) unknownProperties(e *jsonschema.ValidationError) []string {
	s := x.schemaOf(e, "additionalProperties")
	obj, ok := x.object(e.InstanceLocation)
	if s == nil || !ok {
		return nil
	}
	if allowed, isBool := s.AdditionalProperties.(bool); !isBool || allowed {
		return nil
	}
	var out []string
	for name := range obj {
		if _, declared := s.Properties[name]; declared || matchesAny(s.PatternProperties, name) {
			continue
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func matchesAny(patterns map[*regexp.Regexp]*jsonschema.Schema, name string) bool {
	for re := range patterns {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// schemaOf returns the compiled schema whose keyword produced e: the
// library sets AbsoluteKeywordLocation to that schema's Location plus
// "/keyword". It returns nil when e did not come from keyword or the
// schema cannot be found.
func (x *explainer) schemaOf(e *jsonschema.ValidationError, keyword string) *jsonschema.Schema {
	loc, ok := strings.CutSuffix(e.AbsoluteKeywordLocation, "/"+keyword)
	if !ok {
		return nil
	}
	if x.index == nil {
		x.index = indexSchemas(x.root)
	}
	return x.index[loc]
}

// indexSchemas maps the Location of every schema reachable from root to
// that schema. The library keeps no such table, and a failure path is
// the only user, so it is built per failed call (a few hundred nodes for
// the largest tool schemas).
func indexSchemas(root *jsonschema.Schema) map[string]*jsonschema.Schema {
	idx := map[string]*jsonschema.Schema{}
	walkSchemas(root, func(s *jsonschema.Schema) {
		if _, seen := idx[s.Location]; !seen {
			idx[s.Location] = s
		}
	})
	return idx
}

// instance returns the argument value at loc, a pointer in the library's
// syntax (RFC 6901 tokens, each also URL path-escaped).
func (x *explainer) instance(loc string) (any, bool) {
	v := x.args
	if loc == "" {
		return v, true
	}
	for _, tok := range strings.Split(loc, "/")[1:] {
		name := unescapeToken(tok)
		switch c := v.(type) {
		case map[string]any:
			m, ok := c[name]
			if !ok {
				return nil, false
			}
			v = m
		case []any:
			i, err := strconv.Atoi(name)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// object returns the argument object at loc.
func (x *explainer) object(loc string) (map[string]any, bool) {
	v, ok := x.instance(loc)
	if !ok {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// jsonTypeOf names the JSON type of a decoded argument value the way the
// validator does.
func jsonTypeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "an unknown type"
}

// rfc6901 converts a pointer from the library's syntax, whose tokens are
// URL path-escaped on top of RFC 6901 ("a b" comes out as "a%20b"), to
// plain RFC 6901. Keyword locations are converted the same way.
func rfc6901(loc string) string {
	if !strings.Contains(loc, "%") {
		return loc
	}
	toks := strings.Split(loc, "/")
	for i, t := range toks {
		if u, err := url.PathUnescape(t); err == nil {
			toks[i] = u
		}
	}
	return strings.Join(toks, "/")
}

// unescapeToken returns the member name a token of the library's pointer
// syntax stands for.
func unescapeToken(tok string) string {
	if u, err := url.PathUnescape(tok); err == nil {
		tok = u
	}
	return jsonpointer.Unescape(tok)
}

// mustBe says which values are allowed: `must be "a"` or
// `must be one of "a", "b"`.
func mustBe(allowed []any) string {
	if len(allowed) == 1 {
		return "must be " + renderValue(allowed[0])
	}
	return "must be one of " + renderValues(allowed)
}

// renderValues writes values as comma-separated canonical JSON.
func renderValues(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = renderValue(v)
	}
	return strings.Join(parts, ", ")
}

// renderValue writes one schema value as canonical JSON.
func renderValue(v any) string {
	b, err := encodeCanonical(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// listNames quotes property names as JSON strings, at most
// maxListedNames of them.
func listNames(names []string) string {
	shown := names[:min(len(names), maxListedNames)]
	parts := make([]string, len(shown))
	for i, n := range shown {
		parts[i] = renderValue(n)
	}
	s := strings.Join(parts, ", ")
	if rest := len(names) - len(shown); rest > 0 {
		s += " and " + strconv.Itoa(rest) + " more"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// clip shortens s to at most n bytes, cutting at a rune boundary and
// marking the cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	cut := max(n-len(ellipsis), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}
