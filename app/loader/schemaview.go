package loader

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/dshgo/dsh/internal/jsonpointer"
)

// maxSchemaDepth bounds how far normalization follows a schema, which may be
// recursive through $ref (a tree of menus, say), so it always terminates.
const maxSchemaDepth = 32

// schemaView is what normalization needs to know about one subschema, with
// local $refs followed and allOf members folded in. It is deliberately an
// approximation of JSON Schema: it only has to decide defaults, clamping and
// which keys are unknown; validation afterwards uses the real validator.
type schemaView struct {
	// properties are the declared properties of this level and of its allOf
	// members (the level's own declaration wins); defaults come from these.
	properties map[string]any
	// known are property names that any branch (allOf, anyOf, oneOf,
	// then/else, dependentSchemas) declares: a key some branch accepts is
	// never removed as unknown.
	known    map[string]bool
	patterns []*regexp.Regexp
	// openExtra means unlisted keys are data (additionalProperties or
	// unevaluatedProperties is a schema or true), so nothing is removed.
	openExtra bool
	def       any
	hasDef    bool
	min, max  *number
	items     any
	types     map[string]bool
}

// describesObject tells whether a missing property should be created as an
// object to hold nested defaults.
func (v *schemaView) describesObject() bool {
	if len(v.types) == 0 {
		return len(v.properties) > 0
	}
	return v.types["object"]
}

// acceptsNull tells whether null is a deliberate value rather than an empty
// YAML key ("db:" with its settings commented out), which gets defaults.
func (v *schemaView) acceptsNull() bool {
	return len(v.types) == 0 || v.types["null"]
}

// prunes tells whether keys not declared at this level are removed. Only
// levels that list their properties and do not admit extra keys qualify;
// otherwise a free-form map (headers, labels) would lose all its content.
func (v *schemaView) prunes() bool {
	return (len(v.known) > 0 || len(v.patterns) > 0) && !v.openExtra
}

// allows tells whether key is declared at this level.
func (v *schemaView) allows(key string) bool {
	if v.known[key] {
		return true
	}
	for _, re := range v.patterns {
		if re.MatchString(key) {
			return true
		}
	}
	return false
}

// view builds the schemaView of raw, a subschema of cs.doc; nil when raw is
// not an object schema (true, false, or an unresolvable $ref).
func (cs *compiledSchema) view(raw any) *schemaView {
	return cs.viewDepth(raw, 0)
}

func (cs *compiledSchema) viewDepth(raw any, depth int) *schemaView {
	m := cs.resolve(raw)
	if m == nil || depth > maxSchemaDepth {
		return nil
	}
	v := &schemaView{properties: map[string]any{}, known: map[string]bool{}, types: map[string]bool{}}
	if props, ok := m["properties"].(map[string]any); ok {
		for name, sub := range props {
			v.properties[name] = sub
			v.known[name] = true
		}
	}
	if pats, ok := m["patternProperties"].(map[string]any); ok {
		for pat := range pats {
			if re, err := regexp.Compile(pat); err == nil {
				v.patterns = append(v.patterns, re)
			}
		}
	}
	v.openExtra = isOpen(m, "additionalProperties") || isOpen(m, "unevaluatedProperties")
	v.def, v.hasDef = m["default"]
	if n, ok := toNumber(m["minimum"]); ok {
		v.min = &n
	}
	if n, ok := toNumber(m["maximum"]); ok {
		v.max = &n
	}
	if items, ok := m["items"].(map[string]any); ok {
		v.items = items
	}
	switch t := m["type"].(type) {
	case string:
		v.types[t] = true
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				v.types[s] = true
			}
		}
	}
	cs.foldBranches(v, m, depth)
	return v
}

// foldBranches merges what the composition keywords declare into v.
func (cs *compiledSchema) foldBranches(v *schemaView, m map[string]any, depth int) {
	if all, ok := m["allOf"].([]any); ok {
		for _, sub := range all {
			sv := cs.viewDepth(sub, depth+1)
			if sv == nil {
				continue
			}
			for name, p := range sv.properties {
				if _, own := v.properties[name]; !own {
					v.properties[name] = p
				}
			}
			cs.absorbKnown(v, sv)
		}
	}
	var branches []any
	for _, kw := range []string{"anyOf", "oneOf"} {
		if list, ok := m[kw].([]any); ok {
			branches = append(branches, list...)
		}
	}
	for _, kw := range []string{"if", "then", "else"} {
		if sub, ok := m[kw]; ok {
			branches = append(branches, sub)
		}
	}
	if deps, ok := m["dependentSchemas"].(map[string]any); ok {
		for _, sub := range deps {
			branches = append(branches, sub)
		}
	}
	for _, sub := range branches {
		if sv := cs.viewDepth(sub, depth+1); sv != nil {
			cs.absorbKnown(v, sv)
		}
	}
}

func (cs *compiledSchema) absorbKnown(v, sub *schemaView) {
	for name := range sub.known {
		v.known[name] = true
	}
	v.patterns = append(v.patterns, sub.patterns...)
	v.openExtra = v.openExtra || sub.openExtra
}

// isOpen tells whether keyword admits extra keys: true or a schema object.
// Absent or false does not: an absent additionalProperties is exactly the
// "old file still has a key the plugin dropped" case pruning exists for.
func isOpen(m map[string]any, keyword string) bool {
	switch x := m[keyword].(type) {
	case bool:
		return x
	case map[string]any:
		return true
	}
	return false
}

// resolve follows local $ref pointers ("#/$defs/limits") so normalization
// sees the subschema the validator will use. Keywords written next to a
// $ref (allowed since draft 2019-09) override the referenced ones.
func (cs *compiledSchema) resolve(raw any) map[string]any {
	m, ok := raw.(map[string]any)
	for hops := 0; ok && hops < maxSchemaDepth; hops++ {
		ref, isRef := m["$ref"].(string)
		if !isRef {
			return m
		}
		target, found := lookupPointer(cs.doc, ref)
		if !found {
			return m
		}
		merged := make(map[string]any, len(target)+len(m))
		for k, e := range target {
			merged[k] = e
		}
		for k, e := range m {
			if k != "$ref" {
				merged[k] = e
			}
		}
		m = merged
	}
	return m
}

// lookupPointer resolves a same-document reference "#/a/b" in doc.
func lookupPointer(doc any, ref string) (map[string]any, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, false
	}
	cur := doc
	if frag != "" {
		if !strings.HasPrefix(frag, "/") {
			return nil, false // $anchor names are not supported
		}
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = jsonpointer.Unescape(tok)
			switch c := cur.(type) {
			case map[string]any:
				cur = c[tok]
			case []any:
				i, ok := parseIndex(tok, len(c))
				if !ok {
					return nil, false
				}
				cur = c[i]
			default:
				return nil, false
			}
		}
	}
	m, ok := cur.(map[string]any)
	return m, ok
}

func parseIndex(tok string, n int) (int, bool) {
	if tok == "" || len(tok) > 9 {
		return 0, false
	}
	i := 0
	for _, r := range tok {
		if r < '0' || r > '9' {
			return 0, false
		}
		i = i*10 + int(r-'0')
	}
	return i, i < n
}
