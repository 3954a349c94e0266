package tools

import (
	"cmp"
	"slices"
	"strings"

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
// recursing because unions nest.
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
// union of its children, since all of those had to hold.
func (x *explainer) reduce(e *jsonschema.ValidationError) ([]ArgumentProblem, int) {
	if len(e.Causes) == 0 {
		return []ArgumentProblem{x.leaf(e)}, 0
	}
	if k := lastToken(e.KeywordLocation); k == "oneOf" || k == "anyOf" {
		return x.union(e)
	}
	var out []ArgumentProblem
	omitted := 0
	for _, c := range e.Causes {
		ps, n := x.reduce(c)
		out = append(out, ps...)
		omitted += n
	}
	return out, omitted
}

// union explains a oneOf/anyOf that no branch satisfied. Each cause is
// one failed branch (the library lists every branch, in order, when none
// matched). Branches are narrowed by JSON type, then by discriminator;
// a single survivor is reported alone, a wrong or missing discriminator
// as one problem at its pointer, and anything else falls back to the
// survivors' problems, capped.
func (x *explainer) union(e *jsonschema.ValidationError) ([]ArgumentProblem, int) {
	branches := e.Causes
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
		return x.reduce(branches[0])
	}
	var out []ArgumentProblem
	omitted := 0
	for _, b := range branches {
		ps, n := x.reduce(b)
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

// narrowByType drops the branches that failed only because the value has
// another JSON type than the branch is about (the library reports a type
// mismatch alone, so such a branch is a single "type" leaf at the union's
// own location). When every branch failed that way, the result is one
// problem naming all the accepted types instead.
func (x *explainer) narrowByType(e *jsonschema.ValidationError, branches []*jsonschema.ValidationError) ([]*jsonschema.ValidationError, *ArgumentProblem) {
	var kept []*jsonschema.ValidationError
	var types []string
	for _, b := range branches {
		if len(b.Causes) == 0 && lastToken(b.KeywordLocation) == "type" && b.InstanceLocation == e.InstanceLocation {
			if s := x.schemaOf(b, "type"); s != nil {
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
	meant   []*jsonschema.ValidationError
	problem *ArgumentProblem
}

// discriminate looks for the property that selects the branch. A branch
// whose failure includes a const, enum or not mismatch on a direct
// property of the instance (e.g. /op, /type), or that requires such a
// const/enum property the instance lacks, was not what the input meant.
//
// Not every such property is a discriminator: an enum field every branch
// declares the same way (an element's fillStyle) fails in all of them
// alike and says nothing about which branch was meant. So a property
// that fails in every branch with one and the same constraint is
// ignored; among the rest, the one whose failures show the most distinct
// constraints wins (ties: fewer branches left, then name).
//
// It returns nil when there is no discriminator. When the discriminator
// rules out every branch, the problem sits at the discriminator's
// pointer and lists the values the branches accept.
func (x *explainer) discriminate(e *jsonschema.ValidationError, branches []*jsonschema.ValidationError) *discrimination {
	at := e.InstanceLocation
	byProp := map[string][]*mismatch{} // property name → per-branch mismatch (nil: none)
	record := func(i int, name string, m *mismatch) {
		ms := byProp[name]
		if ms == nil {
			ms = make([]*mismatch, len(branches))
			byProp[name] = ms
		}
		if ms[i] == nil {
			ms[i] = m
		}
	}
	for i, b := range branches {
		walkLeaves(b, func(l *jsonschema.ValidationError) {
			kw := lastToken(l.KeywordLocation)
			if kw == "required" && l.InstanceLocation == at {
				s := x.schemaOf(l, "required")
				for _, name := range x.missingProperties(l) {
					if allowed := fixedValues(s.Properties[name]); allowed != nil {
						record(i, name, &mismatch{allowed: allowed, key: renderValues(allowed), missing: true})
					}
				}
				return
			}
			token, ok := childToken(at, l.InstanceLocation)
			if !ok {
				return
			}
			s := x.schemaOf(l, kw)
			switch {
			case kw == "not":
				record(i, unescapeToken(token), &mismatch{key: "not"})
			case kw == "const" || kw == "enum" || fixedValues(s) != nil:
				allowed := fixedValues(s)
				key := renderValues(allowed)
				if allowed == nil {
					key = l.Message // schema not found: the message still tells constraints apart
				}
				record(i, unescapeToken(token), &mismatch{allowed: allowed, key: key})
			}
		})
	}

	type candidate struct {
		name     string
		distinct int
		meant    []*jsonschema.ValidationError
		ms       []*mismatch
	}
	var best *candidate
	for name, ms := range byProp {
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
	seen := map[string]bool{}
	allMissing := true
	for _, m := range best.ms {
		allMissing = allMissing && m.missing
		for _, v := range m.allowed {
			if k := renderValue(v); !seen[k] {
				seen[k] = true
				allowed = append(allowed, v)
			}
		}
	}
	if len(allowed) == 0 {
		return nil // only "not" constraints: nothing to list, fall back
	}
	msg := mustBe(allowed)
	if allMissing {
		msg = "missing; " + msg
	}
	return &discrimination{problem: &ArgumentProblem{
		Pointer: rfc6901(at) + "/" + escapeToken(best.name),
		Keyword: rfc6901(e.KeywordLocation),
		Message: clip(msg, maxProblemMessageBytes),
	}}
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

// walkLeaves calls f for every leaf of the error tree under e.
func walkLeaves(e *jsonschema.ValidationError, f func(*jsonschema.ValidationError)) {
	if len(e.Causes) == 0 {
		f(e)
		return
	}
	for _, c := range e.Causes {
		walkLeaves(c, f)
	}
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
	return loc[strings.LastIndexByte(loc, '/')+1:]
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
