package tools

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Discriminated unions are validated by dispatch.
//
// The library validates a oneOf (or anyOf) by validating the value
// against every branch, and every branch it visits on an object costs a
// map of the object's member names and, when it fails, an error with
// formatted messages and locations. For a union picked by a property
// ("type" for an Excalidraw element, "op" for an operation) all but one
// of those branches fail on that property alone, so an array of a
// thousand elements paid for every branch of the element union (and of
// the union of its types nested in one of them) where one was meant.
//
// So every tool schema is compiled twice. The published compilation is
// kept as it is: it is what tools/list shows, and its error tree is what
// the explainer reads. In the second, the fast one, each union whose
// branches all pin down one and the same property (a const, an enum, or
// a not of either, reachable without conditions: directly, through $ref
// or allOf, or in every branch of a nested union) becomes a dispatch
// keyword: it looks at the value of that property, skips the branches
// that certainly refuse it, and applies oneOf's or anyOf's rule to the
// rest. Skipped branches are only ever ones that would have failed, so
// the fast compilation accepts exactly what the published one does,
// with the same annotations (the matched branch's evaluated members
// still count for unevaluatedProperties). When the value lacks the
// property, or is not an object, every branch is tried, as before.
//
// Arguments are validated against the fast compilation; only when it
// refuses them are they validated against the published one, whose
// error tree the explainer turns into problems (see validateFast).
// Refusals are the rare path, so their cost stays what it was.

// dispatchKeyword names the extension a dispatching union is installed
// under in a fast compilation's Schema.Extensions.
const dispatchKeyword = "dsh-dispatch"

// maxGateDepth bounds the walk that looks for a branch's pins through
// $ref, allOf and nested unions.
const maxGateDepth = 16

// dispatch is a union validated by its discriminators.
type dispatch struct {
	keyword  string // "oneOf" or "anyOf": the rule applied to the candidates
	branches []*jsonschema.Schema
	discs    []discriminator
}

// discriminator is one property every branch of a union pins down.
type discriminator struct {
	name  string
	gates []*gate // per branch
	// known maps the values the gates name (strings, numbers, booleans,
	// null) to the branches that do not refuse them, computed once.
	known map[any][]int
}

// gate is what a schema certainly refuses at one property of an object:
// the value, when one of props refuses it or when every alternative of
// one of unions does.
type gate struct {
	props  []*jsonschema.Schema
	unions [][]*gate
}

// refuses reports whether g certainly refuses value v.
func (g *gate) refuses(v any) bool {
	for _, p := range g.props {
		if err := validateValue(p, v); err != nil {
			if _, isVE := err.(*jsonschema.ValidationError); isVE {
				return true
			}
		}
	}
	for _, alts := range g.unions {
		if !slices.ContainsFunc(alts, func(a *gate) bool { return !a.refuses(v) }) {
			return true
		}
	}
	return false
}

// values appends the values g's pins name.
func (g *gate) values(out []any) []any {
	for _, p := range g.props {
		for _, s := range []*jsonschema.Schema{p, p.Not} {
			if s == nil {
				continue
			}
			out = append(out, s.Constant...)
			out = append(out, s.Enum...)
		}
	}
	for _, alts := range g.unions {
		for _, a := range alts {
			out = a.values(out)
		}
	}
	return out
}

// compileFast compiles raw again and installs dispatch in the copy. It
// returns nil when no union can be dispatched, so the published
// compilation serves alone.
func compileFast(url string, raw []byte) (*jsonschema.Schema, error) {
	s, err := compileSafely(url, raw)
	if err != nil {
		return nil, err
	}
	// Find every dispatch first and install them after: gates look into
	// nested unions, which must still be there when they are found.
	type site struct {
		at *jsonschema.Schema
		d  *dispatch
	}
	var sites []site
	walkSchemas(s, func(u *jsonschema.Schema) {
		if d := newDispatch("oneOf", u.OneOf); d != nil {
			sites = append(sites, site{u, d})
		}
		if d := newDispatch("anyOf", u.AnyOf); d != nil {
			sites = append(sites, site{u, d})
		}
	})
	if len(sites) == 0 {
		return nil, nil
	}
	for _, st := range sites {
		if st.at.Extensions == nil {
			st.at.Extensions = map[string]jsonschema.ExtSchema{}
		}
		st.at.Extensions[dispatchKeyword+"-"+st.d.keyword] = st.d
		if st.d.keyword == "oneOf" {
			st.at.OneOf = nil
		} else {
			st.at.AnyOf = nil
		}
	}
	return s, nil
}

// newDispatch returns the dispatch of a union of branches, or nil when
// no property is pinned down by all of them.
func newDispatch(keyword string, branches []*jsonschema.Schema) *dispatch {
	if len(branches) < 2 {
		return nil
	}
	var names []string
	for name := range branches[0].Properties {
		names = append(names, name)
	}
	// A discriminator may be pinned below a $ref or nested union too:
	// gather names from everything the first branch applies in place.
	findInPlace(branches[0], func(c *jsonschema.Schema) bool {
		for name := range c.Properties {
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
		return false
	})
	slices.Sort(names)
	d := &dispatch{keyword: keyword, branches: branches}
	for _, name := range names {
		gates := make([]*gate, len(branches))
		all := true
		for i, b := range branches {
			if gates[i] = gateOf(b, name, 0, nil); gates[i] == nil {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		disc := discriminator{name: name, gates: gates, known: map[any][]int{}}
		var vals []any
		for _, g := range gates {
			vals = g.values(vals)
		}
		selective := false
		for _, v := range vals {
			if comparableValue(v) {
				live := disc.survivors(v)
				disc.known[v] = live
				selective = selective || (len(live) > 0 && len(live) < len(branches))
			}
		}
		// A property every branch pins the same way (a shared enum) is a
		// field: it never tells branches apart, so it is not looked at.
		if selective {
			d.discs = append(d.discs, disc)
		}
	}
	if len(d.discs) == 0 {
		return nil
	}
	return d
}

// gateOf returns what schema s certainly refuses at property name of an
// object, or nil when it refuses nothing there for certain. Only what s
// applies unconditionally counts: its own properties, $ref, allOf, and
// nested unions all of whose branches refuse; if/then/else, not and
// dependentSchemas do not.
func gateOf(s *jsonschema.Schema, name string, depth int, path []*jsonschema.Schema) *gate {
	if s == nil || depth > maxGateDepth || slices.Contains(path, s) {
		return nil
	}
	path = append(path, s)
	g := &gate{}
	if p := s.Properties[name]; p != nil && isPin(p) {
		g.props = append(g.props, p)
	}
	for _, c := range append([]*jsonschema.Schema{s.Ref}, s.AllOf...) {
		if cg := gateOf(c, name, depth+1, path); cg != nil {
			g.props = append(g.props, cg.props...)
			g.unions = append(g.unions, cg.unions...)
		}
	}
	for _, alts := range [][]*jsonschema.Schema{s.OneOf, s.AnyOf} {
		if len(alts) == 0 {
			continue
		}
		gs := make([]*gate, len(alts))
		for i, a := range alts {
			if gs[i] = gateOf(a, name, depth+1, path); gs[i] == nil {
				gs = nil
				break
			}
		}
		if gs != nil {
			g.unions = append(g.unions, gs)
		}
	}
	if len(g.props) == 0 && len(g.unions) == 0 {
		return nil
	}
	return g
}

// isPin reports whether property schema p is a discriminator's: a
// const, an enum, or a not of either, whose verdict on a value does not
// depend on where it is applied (no $dynamicRef or $recursiveRef below
// it).
func isPin(p *jsonschema.Schema) bool {
	fixed := func(s *jsonschema.Schema) bool { return s != nil && (len(s.Constant) > 0 || len(s.Enum) > 0) }
	if !fixed(p) && (p.Not == nil || !fixed(p.Not)) {
		return false
	}
	dynamic := false
	walkSchemas(p, func(s *jsonschema.Schema) {
		dynamic = dynamic || s.DynamicRef != nil || s.RecursiveRef != nil
	})
	return !dynamic
}

// comparableValue reports whether v, a JSON scalar, can key a map.
func comparableValue(v any) bool {
	switch v.(type) {
	case nil, string, bool, json.Number, float64:
		return true
	}
	return false
}

// survivors lists the branches whose gate does not refuse v.
func (d *discriminator) survivors(v any) []int {
	var out []int
	for i, g := range d.gates {
		if !g.refuses(v) {
			out = append(out, i)
		}
	}
	return out
}

// candidates lists the branches v may match: all of them unless v is an
// object holding a discriminator, else those no discriminator refuses.
func (d *dispatch) candidates(v any) []int {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out []int
	narrowed := false
	for i := range d.discs {
		disc := &d.discs[i]
		pv, present := obj[disc.name]
		if !present {
			continue
		}
		var live []int
		if comparableValue(pv) {
			s, known := disc.known[pv]
			if !known {
				s = disc.survivors(pv)
			}
			live = s
		} else {
			live = disc.survivors(pv)
		}
		if !narrowed {
			out, narrowed = live, true
			continue
		}
		out = slices.DeleteFunc(slices.Clone(out), func(b int) bool { return !slices.Contains(live, b) })
	}
	if !narrowed {
		return nil
	}
	if out == nil {
		out = []int{}
	}
	return out
}

// Validate applies the union's rule to the candidate branches (see
// candidates; nil means every branch).
func (d *dispatch) Validate(ctx jsonschema.ValidationContext, v any) error {
	cands := d.candidates(v)
	if cands == nil {
		cands = make([]int, len(d.branches))
		for i := range cands {
			cands[i] = i
		}
	}
	matched := -1
	var causes []error
	for _, i := range cands {
		err := ctx.Validate(d.branches[i], d.keyword+"/"+strconv.Itoa(i), v, "")
		if err != nil {
			causes = append(causes, err)
			continue
		}
		if d.keyword == "anyOf" {
			matched = i // anyOf evaluates every branch, for their annotations
			continue
		}
		if matched >= 0 {
			return ctx.Error(d.keyword, "valid against schemas at indexes %d and %d", matched, i)
		}
		matched = i
	}
	if matched >= 0 {
		return nil
	}
	parent := ctx.Error(d.keyword, "%s failed", d.keyword)
	if len(causes) == 0 {
		return parent
	}
	return jsonschema.ValidationError{}.Group(parent, causes...)
}

// walkSchemas calls visit once for every schema reachable from root.
func walkSchemas(root *jsonschema.Schema, visit func(*jsonschema.Schema)) {
	seen := map[*jsonschema.Schema]bool{}
	var walk func(*jsonschema.Schema)
	walkAll := func(ss []*jsonschema.Schema) {
		for _, s := range ss {
			walk(s)
		}
	}
	walk = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		visit(s)
		walk(s.Ref)
		walk(s.RecursiveRef)
		walk(s.DynamicRef)
		walk(s.Not)
		walkAll(s.AllOf)
		walkAll(s.AnyOf)
		walkAll(s.OneOf)
		walk(s.If)
		walk(s.Then)
		walk(s.Else)
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.PropertyNames)
		for _, p := range s.PatternProperties {
			walk(p)
		}
		if p, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
			walk(p)
		}
		for _, d := range s.Dependencies {
			if p, ok := d.(*jsonschema.Schema); ok {
				walk(p)
			}
		}
		for _, p := range s.DependentSchemas {
			walk(p)
		}
		walk(s.UnevaluatedProperties)
		switch items := s.Items.(type) {
		case *jsonschema.Schema:
			walk(items)
		case []*jsonschema.Schema:
			walkAll(items)
		}
		if p, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
			walk(p)
		}
		walkAll(s.PrefixItems)
		walk(s.Items2020)
		walk(s.Contains)
		walk(s.UnevaluatedItems)
		walk(s.ContentSchema)
		for _, e := range s.Extensions {
			if d, ok := e.(*dispatch); ok {
				walkAll(d.branches)
			}
		}
	}
	walk(root)
}
