package tools

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dshgo/dsh/internal/jsonpointer"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// maxAlternativeProblems caps the problems one oneOf/anyOf contributes
// when no branch can be told apart as the one the input meant: those are
// alternatives, and a handful is enough to show what went wrong.
const maxAlternativeProblems = 4

// explainer turns a jsonschema/v5 validation error tree into the few
// problems an agent should fix.
//
// The library reports a failed oneOf/anyOf with one subtree per branch,
// so one wrong field inside a discriminated union (an Excalidraw
// operation, picked by "op", holding an element, picked by "type")
// fails every branch, and a flat listing repeats the failure once per
// branch. The explainer keeps only the branch the input meant, judged
// first by JSON type and then by its discriminator (see discriminate),
// recursing because unions nest. Schemas that share pieces through $ref
// and close objects with unevaluatedProperties need two more things: a
// member refused only because the $ref declaring it failed is not
// unknown (see unevaluated), and a union nested inside a branch, at the
// same object, narrows the outer one only where all its branches agree
// (see mismatches).
//
// The tree alone lacks what plain messages need, so the explainer also
// holds the compiled schema (allowed values of const and enum, required
// and declared properties) and the validated arguments (which members
// are present).
type explainer struct {
	root  *jsonschema.Schema
	args  any
	index map[string]*jsonschema.Schema // Schema.Location → schema; built on first use
}

// explain reduces the error tree to problems, sorted and without
// duplicates, and also returns how many further problems were found but
// left out by the per-union cap.
func (x *explainer) explain(ve *jsonschema.ValidationError) ([]ArgumentProblem, int) {
	problems, omitted := x.reduce(ve)
	return sortProblems(problems), omitted
}

// reduce returns the problems of one subtree. Leaves are problems; a
// failed oneOf/anyOf is narrowed to its meant branch; any other inner
// node (several failures of one schema, allOf, $ref, if/then) is the
// union of its children, since all of those had to hold. Members refused
// by unevaluatedProperties are gathered into one problem per object (see
// unevaluated).
func (x *explainer) reduce(e *jsonschema.ValidationError) ([]ArgumentProblem, int) {
	if len(e.Causes) == 0 {
		if isUnevaluated(e) {
			return x.unevaluated([]*jsonschema.ValidationError{e}, false), 0
		}
		return []ArgumentProblem{x.leaf(e)}, 0
	}
	if isUnion(e) {
		return x.union(e)
	}
	var out []ArgumentProblem
	var uneval []*jsonschema.ValidationError
	omitted := 0
	for _, c := range e.Causes {
		if len(c.Causes) == 0 && isUnevaluated(c) {
			uneval = append(uneval, c)
			continue
		}
		ps, n := x.reduce(c)
		out = append(out, ps...)
		omitted += n
	}
	out = append(out, x.unevaluated(uneval, len(uneval) < len(e.Causes))...)
	return out, omitted
}

// isUnion reports whether e is a failed oneOf or anyOf.
func isUnion(e *jsonschema.ValidationError) bool {
	k := lastToken(e.KeywordLocation)
	return k == "oneOf" || k == "anyOf"
}

// isUnevaluated reports whether e refuses a member for
// unevaluatedProperties (the library reports one error per member, at
// the member's own location).
func isUnevaluated(e *jsonschema.ValidationError) bool {
	return lastToken(e.KeywordLocation) == "unevaluatedProperties"
}

// unevaluated turns the members one schema's unevaluatedProperties
// refused into one problem per object, "unknown property ...", at the
// object's pointer, where additionalProperties:false reports them too.
//
// When an in-place applicator of the same schema failed as well (a $ref,
// an allOf, a oneOf), the library counts none of the members it declares
// as evaluated, so they are refused too although they are known: their
// real problem is the applicator's, reported on its own. afterFailure
// says so; such members, which the schema declares through its
// applicators, are then left out.
func (x *explainer) unevaluated(leaves []*jsonschema.ValidationError, afterFailure bool) []ArgumentProblem {
	type object struct{ at, keyword string }
	names := map[object][]string{}
	known := map[object][]string{} // what the object's schema declares
	var order []object
	for _, l := range leaves {
		at, tok := splitLast(l.InstanceLocation)
		name := unescapeToken(tok)
		s := x.schemaOf(l, "unevaluatedProperties")
		if afterFailure && declares(s, name) {
			continue
		}
		o := object{at, l.KeywordLocation}
		if names[o] == nil {
			order = append(order, o)
			known[o] = declaredNames(s)
		}
		names[o] = append(names[o], name)
	}
	var out []ArgumentProblem
	for _, o := range order {
		ns := names[o]
		slices.Sort(ns)
		out = append(out, ArgumentProblem{
			Pointer: rfc6901(o.at),
			Keyword: rfc6901(o.keyword),
			Message: clip("unknown "+plural(len(ns), "property", "properties")+" "+listUnknown(ns, known[o]), maxProblemMessageBytes),
		})
	}
	return out
}

// declares reports whether schema s declares member name, in its own
// properties or in any schema it applies to the same object ($ref,
// allOf, anyOf, oneOf, then, else, dependentSchemas): the members whose
// evaluation unevaluatedProperties counts.
func declares(s *jsonschema.Schema, name string) bool {
	return findInPlace(s, func(c *jsonschema.Schema) bool {
		_, ok := c.Properties[name]
		return ok || matchesAny(c.PatternProperties, name) ||
			(c.AdditionalProperties != nil && c.AdditionalProperties != false)
	}) != nil
}

// findInPlace returns the first of s and the schemas it applies in place
// (see inPlace), transitively, for which f holds; nil when none does.
func findInPlace(s *jsonschema.Schema, f func(*jsonschema.Schema) bool) *jsonschema.Schema {
	seen := map[*jsonschema.Schema]bool{}
	var walk func(*jsonschema.Schema) *jsonschema.Schema
	walk = func(s *jsonschema.Schema) *jsonschema.Schema {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		if f(s) {
			return s
		}
		for _, c := range inPlace(s) {
			if found := walk(c); found != nil {
				return found
			}
		}
		return nil
	}
	return walk(s)
}

// inPlace lists the subschemas s applies to the same instance, whose
// annotations (evaluated members, declared properties) count as its own.
func inPlace(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s.Ref, s.DynamicRef, s.RecursiveRef, s.Then, s.Else}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	for _, d := range s.DependentSchemas {
		out = append(out, d)
	}
	return slices.DeleteFunc(out, func(c *jsonschema.Schema) bool { return c == nil })
}

// branch is one failed alternative of a union: its error subtree and,
// when it can be found, its schema.
type branch struct {
	err    *jsonschema.ValidationError
	schema *jsonschema.Schema
}

// union explains a oneOf/anyOf that no branch satisfied. Each cause is
// one failed branch (the library lists every branch, in order, when none
// matched). Branches are narrowed by JSON type, then by discriminator;
// a single survivor is reported alone, a wrong or missing discriminator
// as one problem at its pointer, and anything else falls back to the
// survivors' problems, capped.
func (x *explainer) union(e *jsonschema.ValidationError) ([]ArgumentProblem, int) {
	branches := x.branches(e)
	if len(branches) > 1 {
		var typeProblem *ArgumentProblem
		branches, typeProblem = x.narrowByType(e, branches)
		if typeProblem != nil {
			return []ArgumentProblem{*typeProblem}, 0
		}
	}
	if len(branches) > 1 {
		if d := x.discriminate(e, branches); d != nil {
			if d.problem != nil {
				return []ArgumentProblem{*d.problem}, 0
			}
			branches = d.meant
		}
	}
	if len(branches) == 1 {
		return x.reduce(branches[0].err)
	}
	var out []ArgumentProblem
	omitted := 0
	for _, b := range branches {
		ps, n := x.reduce(b.err)
		out = append(out, ps...)
		omitted += n
	}
	out = sortProblems(out)
	if len(out) > maxAlternativeProblems {
		omitted += len(out) - maxAlternativeProblems
		out = out[:maxAlternativeProblems]
	}
	return out, omitted
}

// branches pairs the failed branches of union e with their schemas.
func (x *explainer) branches(e *jsonschema.ValidationError) []branch {
	kw := lastToken(e.KeywordLocation)
	var alternatives []*jsonschema.Schema
	if s := x.schemaOf(e, kw); s != nil {
		alternatives = s.OneOf
		if kw == "anyOf" {
			alternatives = s.AnyOf
		}
	}
	out := make([]branch, len(e.Causes))
	for i, c := range e.Causes {
		out[i].err = c
		if len(alternatives) == len(e.Causes) {
			out[i].schema = alternatives[i]
		}
	}
	return out
}

// narrowByType drops the branches that failed only because the value has
// another JSON type than the branch is about (the library reports a type
// mismatch alone, so such a branch is a single "type" leaf at the union's
// own location, possibly behind a $ref). When every branch failed that
// way, the result is one problem naming all the accepted types instead.
func (x *explainer) narrowByType(e *jsonschema.ValidationError, branches []branch) ([]branch, *ArgumentProblem) {
	var kept []branch
	var types []string
	for _, b := range branches {
		l := b.err
		for len(l.Causes) == 1 && lastToken(l.KeywordLocation) == "$ref" {
			l = l.Causes[0]
		}
		if len(l.Causes) == 0 && lastToken(l.KeywordLocation) == "type" && l.InstanceLocation == e.InstanceLocation {
			if s := x.schemaOf(l, "type"); s != nil {
				for _, t := range s.Types {
					if !slices.Contains(types, t) {
						types = append(types, t)
					}
				}
			}
			continue
		}
		kept = append(kept, b)
	}
	switch {
	case len(kept) > 0:
		return kept, nil
	case len(types) == 0:
		return branches, nil // schemas not found: let the fallback list them
	}
	got := "an unknown type"
	if v, ok := x.instance(e.InstanceLocation); ok {
		got = jsonTypeOf(v)
	}
	return nil, &ArgumentProblem{
		Pointer: rfc6901(e.InstanceLocation),
		Keyword: rfc6901(e.KeywordLocation),
		Message: "expected " + strings.Join(types, " or ") + ", got " + got,
	}
}

// mismatch is how one branch rejected the value of one property.
type mismatch struct {
	allowed []any  // the values the branch accepts there; nil for a "not"
	key     string // identifies the constraint, to tell branches apart
	missing bool   // the property is absent and the branch requires it
}

// discrimination is the outcome of discriminate: either the branches the
// input meant (possibly several), or one problem when the discriminator
// matched none of them.
type discrimination struct {
	meant   []branch
	problem *ArgumentProblem
}

// discriminate looks for the property that selects the branch. A branch
// whose failure includes a const, enum or not mismatch on a direct
// property of the instance (e.g. /op, /type), or that requires such a
// const/enum property the instance lacks, was not what the input meant.
//
// Not every such property is a discriminator. It has to be one every
// branch pins down with a const, enum or not (in its own properties or
// in a schema it applies in place): a field only some branches
// constrain, the way one branch's $ref constrains an element's
// fillStyle, says nothing about which branch was meant. And an enum
// field every branch declares the same way fails in all of them alike,
// so a property that fails in every branch with one and the same
// constraint is ignored too. Among the rest, the one whose failures
// show the most distinct constraints wins (ties: fewer branches left,
// then name).
//
// It returns nil when there is no discriminator. When the discriminator
// rules out every branch, the problem sits at the discriminator's
// pointer and lists the values the branches accept.
func (x *explainer) discriminate(e *jsonschema.ValidationError, branches []branch) *discrimination {
	byProp := map[string][]*mismatch{} // property name → per-branch mismatch (nil: none)
	for i, b := range branches {
		for name, m := range x.mismatches(b.err, e.InstanceLocation) {
			if byProp[name] == nil {
				byProp[name] = make([]*mismatch, len(branches))
			}
			byProp[name][i] = m
		}
	}

	type candidate struct {
		name     string
		distinct int
		meant    []branch
		ms       []*mismatch
	}
	var best *candidate
	for name, ms := range byProp {
		if slices.ContainsFunc(branches, func(b branch) bool { return b.schema != nil && !pins(b.schema, name) }) {
			continue // not pinned down by every branch: a field, not a discriminator
		}
		c := candidate{name: name, ms: ms}
		keys := map[string]bool{}
		for i, m := range ms {
			if m == nil {
				c.meant = append(c.meant, branches[i])
			} else {
				keys[m.key] = true
			}
		}
		c.distinct = len(keys)
		if len(c.meant) == 0 && c.distinct == 1 {
			continue // a shared field, wrong the same way everywhere
		}
		if best == nil || cmp.Or(
			cmp.Compare(c.distinct, best.distinct),
			cmp.Compare(len(best.meant), len(c.meant)),
			cmp.Compare(best.name, c.name)) > 0 {
			best = &c
		}
	}
	if best == nil {
		return nil
	}
	if len(best.meant) > 0 {
		return &discrimination{meant: best.meant}
	}
	// The discriminator matched no branch: say what it may be.
	var allowed []any
	allMissing := true
	for _, m := range best.ms {
		allMissing = allMissing && m.missing
		allowed = appendValues(allowed, m.allowed)
	}
	if len(allowed) == 0 {
		return nil // only "not" constraints: nothing to list, fall back
	}
	msg := mustBe(allowed)
	if allMissing {
		msg = "missing; " + msg
	}
	return &discrimination{problem: &ArgumentProblem{
		Pointer: rfc6901(e.InstanceLocation) + "/" + jsonpointer.Escape(best.name),
		Keyword: rfc6901(e.KeywordLocation),
		Message: clip(msg, maxProblemMessageBytes),
	}}
}

// mismatches collects, by property name, how the subtree e rejected the
// direct properties of the object at at (see discriminate). A union
// nested at the same object rejects a property only where all its
// branches do: one of them may still accept the value.
func (x *explainer) mismatches(e *jsonschema.ValidationError, at string) map[string]*mismatch {
	out := map[string]*mismatch{}
	if len(e.Causes) == 0 {
		x.leafMismatches(e, at, out)
		return out
	}
	if isUnion(e) && e.InstanceLocation == at {
		for i, c := range e.Causes {
			ms := x.mismatches(c, at)
			if i == 0 {
				out = ms
				continue
			}
			for name, m := range out {
				if other := ms[name]; other == nil {
					delete(out, name)
				} else {
					out[name] = &mismatch{
						allowed: appendValues(slices.Clone(m.allowed), other.allowed),
						key:     m.key + "|" + other.key,
						missing: m.missing && other.missing,
					}
				}
			}
		}
		return out
	}
	for _, c := range e.Causes {
		for name, m := range x.mismatches(c, at) {
			if out[name] == nil {
				out[name] = m
			}
		}
	}
	return out
}

// leafMismatches records into out the mismatch one failed keyword shows.
func (x *explainer) leafMismatches(l *jsonschema.ValidationError, at string, out map[string]*mismatch) {
	record := func(name string, m *mismatch) {
		if out[name] == nil {
			out[name] = m
		}
	}
	kw := lastToken(l.KeywordLocation)
	if kw == "required" && l.InstanceLocation == at {
		s := x.schemaOf(l, "required")
		for _, name := range x.missingProperties(l) {
			if allowed := fixedValues(declared(s, name)); allowed != nil {
				record(name, &mismatch{allowed: allowed, key: renderValues(allowed), missing: true})
			}
		}
		return
	}
	token, ok := childToken(at, l.InstanceLocation)
	if !ok || isUnevaluated(l) {
		return
	}
	s := x.schemaOf(l, kw)
	switch {
	case kw == "not":
		record(unescapeToken(token), &mismatch{key: "not"})
	case kw == "const" || kw == "enum" || fixedValues(s) != nil:
		allowed := fixedValues(s)
		key := renderValues(allowed)
		if allowed == nil {
			key = l.Message // schema not found: the message still tells constraints apart
		}
		record(unescapeToken(token), &mismatch{allowed: allowed, key: key})
	}
}

// declared returns the schema s, or one it applies in place, gives
// property name; nil when none does.
func declared(s *jsonschema.Schema, name string) *jsonschema.Schema {
	if d := findInPlace(s, func(c *jsonschema.Schema) bool { return c.Properties[name] != nil }); d != nil {
		return d.Properties[name]
	}
	return nil
}

// pins reports whether schema s, or one it applies in place, restricts
// property name with a const, an enum or a not: what a discriminator is
// in every branch.
func pins(s *jsonschema.Schema, name string) bool {
	return findInPlace(s, func(c *jsonschema.Schema) bool {
		p := c.Properties[name]
		return p != nil && (fixedValues(p) != nil || p.Not != nil)
	}) != nil
}

// appendValues appends to dst the values of vs it does not hold yet.
func appendValues(dst, vs []any) []any {
	for _, v := range vs {
		if !slices.ContainsFunc(dst, func(d any) bool { return renderValue(d) == renderValue(v) }) {
			dst = append(dst, v)
		}
	}
	return dst
}

// fixedValues returns the values a schema restricts a value to (its
// const, or its enum), following $ref; nil when it does not.
func fixedValues(s *jsonschema.Schema) []any {
	for depth := 0; s != nil && depth < 8; depth++ {
		switch {
		case len(s.Constant) > 0:
			return s.Constant[:1]
		case len(s.Enum) > 0:
			return s.Enum
		}
		s = s.Ref
	}
	return nil
}

// childToken reports whether loc is a direct member of parent (both in the
// library's pointer syntax) and returns that member's token.
func childToken(parent, loc string) (string, bool) {
	rest, ok := strings.CutPrefix(loc, parent+"/")
	if !ok || rest == "" || strings.Contains(rest, "/") {
		return "", false
	}
	return rest, true
}

// lastToken is the final token of a slash-separated location.
func lastToken(loc string) string {
	_, tok := splitLast(loc)
	return tok
}

// splitLast splits a slash-separated location into its parent and its
// final token.
func splitLast(loc string) (parent, tok string) {
	i := strings.LastIndexByte(loc, '/')
	if i < 0 {
		return "", loc
	}
	return loc[:i], loc[i+1:]
}

// sortProblems orders problems by pointer, keyword and message, so the
// output does not depend on the validator's map iteration, and drops
// exact duplicates.
func sortProblems(ps []ArgumentProblem) []ArgumentProblem {
	slices.SortFunc(ps, func(a, b ArgumentProblem) int {
		return cmp.Or(cmp.Compare(a.Pointer, b.Pointer), cmp.Compare(a.Keyword, b.Keyword), cmp.Compare(a.Message, b.Message))
	})
	return slices.Compact(ps)
}
