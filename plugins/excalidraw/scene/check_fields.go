package scene

import (
	"fmt"
	"hash"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// checkFields checks every field of every supported element against
// fieldrules.go. A field restore would fill in is reported once per
// scene, counting the elements without it and naming a few, so that an
// old file does not drown its real problems in thousands of identical
// lines; fields missing from the very same elements (an old editor's
// file misses the same ones everywhere) share one warning.
func (v *validator) checkFields() {
	var defaulted []*defaultedField
	byName := map[string]*defaultedField{}
	for i := range v.n {
		e := v.at(i)
		if e.el == nil || !IsSupported(e.typ) || v.doc.sealedUnder(e.el, v.lim) {
			continue // a sealed element's fields were checked when it was written (fork.go)
		}
		ec := elementCheck{v: v, i: i, el: e.el, id: e.id, typ: e.typ}
		ec.apply(baseRules)
		ec.apply(rulesFor(e.typ))
		for _, name := range ec.defaulted {
			f := byName[name]
			if f == nil {
				f = &defaultedField{names: []string{name}, first: i, sum: fnv.New64a()}
				byName[name] = f
				defaulted = append(defaulted, f)
			}
			f.count++
			fmt.Fprint(f.sum, i, ",")
			if len(f.ids) < defaultedExamples && e.id != "" {
				f.ids = append(f.ids, e.id)
			}
		}
	}
	// Fields missing from the same elements, one warning.
	type set struct {
		first, count int
		sum          uint64
	}
	var warnings []*defaultedField
	same := map[set]*defaultedField{}
	for _, f := range defaulted {
		k := set{f.first, f.count, f.sum.Sum64()}
		if w := same[k]; w != nil {
			w.names = append(w.names, f.names...)
			continue
		}
		same[k] = f
		warnings = append(warnings, f)
	}
	for _, f := range warnings {
		v.push(f.warning())
	}
}

// defaultedField is a field (or fields) restore fills in, over the
// elements without it: how many, the first's position, the first few
// ids, and a checksum of their positions.
type defaultedField struct {
	names []string
	first int
	count int
	ids   []string
	sum   hash.Hash64
}

// defaultedExamples is how many ids a missing_field warning names.
const defaultedExamples = 3

// warning is the missing_field warning of a defaulted field: at the
// field of the first element without it (at that element, for several
// fields).
func (f *defaultedField) warning() Diagnostic {
	quoted := make([]string, len(f.ids))
	for k, id := range f.ids {
		quoted[k] = strconv.Quote(id)
	}
	if f.count > len(f.ids) {
		quoted = append(quoted, "…")
	}
	d := Diagnostic{Code: CodeMissingField, Severity: SeverityWarning, Pointer: elementPointer(f.first, f.names[0]), Count: f.count}
	if len(f.ids) > 0 {
		d.ElementID = f.ids[0]
	}
	what, is := f.names[0], "is"
	if len(f.names) > 1 {
		d.Pointer = elementPointer(f.first)
		what, is = strings.Join(f.names, ", "), "are"
	}
	elements := "elements"
	if f.count == 1 {
		elements = "element"
	}
	d.Message = fmt.Sprintf("%s %s absent or null in %d %s (%s); Excalidraw fills in defaults", what, is, f.count, elements, strings.Join(quoted, ", "))
	return d
}

// elementCheck is the state of checking one element.
type elementCheck struct {
	v         *validator
	i         int
	el        *ojson.Object
	id, typ   string
	defaulted []string // missing fields restore fills in
}

func (c *elementCheck) ptr(tokens ...any) string { return elementPointer(c.i, tokens...) }

func (c *elementCheck) errorf(code string, ptr string, format string, args ...any) {
	c.v.errorf(code, ptr, c.id, format, args...)
}

func (c *elementCheck) warnf(code string, ptr string, format string, args ...any) {
	c.v.warnf(code, ptr, c.id, format, args...)
}

func (c *elementCheck) apply(rules []fieldRule) {
	for _, r := range rules {
		val, present := c.el.Get(r.name)
		if !present || (val == nil && !r.shape.nullable()) {
			c.missing(r)
			continue
		}
		c.check(r, val)
	}
}

// missing handles an absent (or null) field according to its rule.
func (c *elementCheck) missing(r fieldRule) {
	switch r.missing {
	case optional:
		return
	case warn:
		if r.name == "boundElements" && c.el.Has("boundElementIds") {
			return // legacy name, migrated by restore
		}
		c.defaulted = append(c.defaulted, r.name)
	default:
		c.errorf(CodeMissingField, c.ptr(r.name), "%s element has no %s, which Excalidraw cannot default", c.typ, r.name)
	}
}

// check dispatches on the rule's shape.
func (c *elementCheck) check(r fieldRule, val any) {
	switch r.shape {
	case shapeNumber:
		c.number(r.name, val)
	case shapeString:
		c.str(r, val)
	case shapeColor:
		c.str(r, val)
		if s, ok := val.(string); ok {
			if n := utf8.RuneCountInString(s); n > MaxColorLength {
				c.errorf(CodeInvalidField, c.ptr(r.name), "%s must be a CSS color of at most %d characters, got %d", r.name, MaxColorLength, n)
			}
		}
	case shapeBool:
		if _, ok := val.(bool); !ok {
			c.errorf(CodeInvalidField, c.ptr(r.name), "%s must be a boolean, got %s", r.name, describe(val, true))
		}
	case shapeStringOrNull:
		if _, ok := val.(string); !ok && val != nil {
			c.errorf(CodeInvalidField, c.ptr(r.name), "%s must be a string or null, got %s", r.name, describe(val, true))
		}
	case shapeObjectOrNull:
		if _, ok := val.(*ojson.Object); !ok && val != nil {
			c.errorf(CodeInvalidField, c.ptr(r.name), "%s must be an object or null, got %s", r.name, describe(val, true))
		}
	case shapeStrings:
		c.strings(r.name, val)
	case shapeBoundElements:
		c.boundElements(val)
	case shapePoints:
		c.points(r.name, val)
	case shapeBinding:
		c.binding(r.name, val)
	case shapeNumbers:
		c.numbers(r.name, val)
	case shapeScale:
		c.scale(r.name, val)
	case shapeRoundness:
		c.roundness(r.name, val)
	}
}

func (c *elementCheck) str(r fieldRule, val any) {
	s, ok := val.(string)
	if !ok {
		c.errorf(CodeInvalidField, c.ptr(r.name), "%s must be a string, got %s", r.name, describe(val, true))
		return
	}
	if r.values != nil && !slices.Contains(r.values, s) {
		c.warnf(CodeInvalidField, c.ptr(r.name), "%s %q is not one of %s; Excalidraw renders a fallback", r.name, s, strings.Join(r.values, ", "))
	}
}

func (c *elementCheck) strings(name string, val any) {
	arr, ok := val.([]any)
	if !ok {
		c.errorf(CodeInvalidField, c.ptr(name), "%s must be an array of strings, got %s", name, describe(val, true))
		return
	}
	for j, x := range arr {
		if _, ok := x.(string); !ok {
			c.errorf(CodeInvalidField, c.ptr(name, j), "%s entries must be strings, got %s", name, describe(x, true))
			return
		}
	}
}

func (c *elementCheck) numbers(name string, val any) {
	arr, ok := val.([]any)
	if !ok {
		c.errorf(CodeInvalidField, c.ptr(name), "%s must be an array of numbers, got %s", name, describe(val, true))
		return
	}
	for j, x := range arr {
		if _, st := toNumber(x); st != numOK {
			c.warnf(CodeInvalidField, c.ptr(name, j), "%s entries must be finite numbers, got %s; Excalidraw replaces them", name, describe(x, true))
			return
		}
	}
}

func (c *elementCheck) scale(name string, val any) {
	arr, ok := val.([]any)
	if ok && len(arr) == 2 {
		_, s0 := toNumber(arr[0])
		_, s1 := toNumber(arr[1])
		if s0 == numOK && s1 == numOK {
			return
		}
	}
	c.errorf(CodeInvalidField, c.ptr(name), "%s must be [sx, sy] with finite numbers, got %s", name, describe(val, true))
}

func (c *elementCheck) roundness(name string, val any) {
	if val == nil {
		return
	}
	o, ok := val.(*ojson.Object)
	if !ok || o == nil {
		c.errorf(CodeInvalidField, c.ptr(name), "%s must be null or an object, got %s", name, describe(val, true))
		return
	}
	if _, st := toNumber(mustGet(o, "type")); st != numOK {
		c.errorf(CodeInvalidField, c.ptr(name, "type"), "%s.type must be a number", name)
	}
}
