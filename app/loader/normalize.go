package loader

import (
	"maps"
	"slices"

	"go.uber.org/zap"
)

// normalizer brings one config object in line with its schema before it is
// validated: it fills defaults, clamps numbers into range and removes keys
// the schema no longer declares. Clamping and removal are warnings rather
// than errors so that a file written for an older plugin version keeps
// loading after an upgrade narrows a range or drops a setting.
type normalizer struct {
	schema *compiledSchema
	log    *zap.Logger
	entry  string // entry id for log fields; empty for the host section
	// onPath counts the $refs followed to reach the current value. A missing
	// object is not created from nested defaults when its schema is already
	// on the path: a recursive schema (a node with an optional child node)
	// would otherwise sprout children without end.
	onPath map[string]int
}

// enter records that raw's $ref (if any) is on the path until leave is called.
func (n *normalizer) enter(raw any) (ref string) {
	m, _ := raw.(map[string]any)
	ref, _ = m["$ref"].(string)
	if ref == "" {
		return ""
	}
	if n.onPath == nil {
		n.onPath = make(map[string]int)
	}
	n.onPath[ref]++
	return ref
}

func (n *normalizer) leave(ref string) {
	if ref != "" {
		n.onPath[ref]--
	}
}

// normalize returns v normalized against the schema's root. v is modified
// in place; callers pass values they own (freshly decoded from YAML).
func (n *normalizer) normalize(v any, ptr string) any {
	return n.value(n.schema.doc, v, ptr, 0)
}

func (n *normalizer) value(raw, v any, ptr string, depth int) any {
	if depth > maxSchemaDepth {
		return v
	}
	defer n.leave(n.enter(raw))
	sv := n.schema.view(raw)
	if sv == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		return n.object(sv, x, ptr, depth)
	case []any:
		if sv.items == nil {
			return x
		}
		for i := range x {
			x[i] = n.value(sv.items, x[i], indexPointer(ptr, i), depth+1)
		}
		return x
	case int64, float64:
		return n.clamp(sv, v, ptr)
	}
	return v
}

func (n *normalizer) object(sv *schemaView, m map[string]any, ptr string, depth int) map[string]any {
	if sv.prunes() {
		for _, key := range slices.Sorted(maps.Keys(m)) {
			if sv.allows(key) {
				continue
			}
			delete(m, key)
			n.log.Warn("removed config key the schema does not declare", n.fields(childPointer(ptr, key))...)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(sv.properties)) {
		raw := sv.properties[name]
		p := childPointer(ptr, name)
		cur, present := m[name]
		sub := n.schema.view(raw)
		if present && (cur != nil || sub == nil || sub.acceptsNull()) {
			m[name] = n.value(raw, cur, p, depth+1)
			continue
		}
		// Missing, or null where null is not allowed: YAML turns "db:" with its
		// settings commented out into null, which reads as "use the defaults".
		if filled, ok := n.fill(raw, sub, p, depth); ok {
			m[name] = filled
		}
	}
	return m
}

// fill produces the value of a missing property: its default, or an object
// built from nested defaults; ok is false when there is nothing to fill.
func (n *normalizer) fill(raw any, sub *schemaView, ptr string, depth int) (any, bool) {
	if sub == nil {
		return nil, false
	}
	if sub.hasDef {
		return n.value(raw, jsonValue(sub.def), ptr, depth+1), true
	}
	if !sub.describesObject() || !n.hasDefaults(sub, depth+1) {
		return nil, false
	}
	if m, _ := raw.(map[string]any); m != nil {
		if ref, _ := m["$ref"].(string); ref != "" && n.onPath[ref] > 0 {
			return nil, false
		}
	}
	defer n.leave(n.enter(raw))
	return n.object(sub, map[string]any{}, ptr, depth+1), true
}

// hasDefaults tells whether creating the object would put anything in it, so
// that the normalized config does not sprout empty objects.
func (n *normalizer) hasDefaults(sv *schemaView, depth int) bool {
	if depth > maxSchemaDepth {
		return false
	}
	for _, raw := range sv.properties {
		sub := n.schema.view(raw)
		if sub == nil {
			continue
		}
		if sub.hasDef || (sub.describesObject() && n.hasDefaults(sub, depth+1)) {
			return true
		}
	}
	return false
}

func (n *normalizer) clamp(sv *schemaView, v any, ptr string) any {
	num, ok := toNumber(v)
	if !ok {
		return v
	}
	if sv.min != nil && num.cmp(*sv.min) < 0 {
		out := clampTo(v, *sv.min, false)
		n.log.Warn("config value below minimum; clamped", append(n.fields(ptr), zap.Any("value", v), zap.Any("clampedTo", out))...)
		return out
	}
	if sv.max != nil && num.cmp(*sv.max) > 0 {
		out := clampTo(v, *sv.max, true)
		n.log.Warn("config value above maximum; clamped", append(n.fields(ptr), zap.Any("value", v), zap.Any("clampedTo", out))...)
		return out
	}
	return v
}

func (n *normalizer) fields(ptr string) []zap.Field {
	if n.entry == "" {
		return []zap.Field{zap.String("pointer", ptr)}
	}
	return []zap.Field{zap.String("entry", n.entry), zap.String("pointer", ptr)}
}
