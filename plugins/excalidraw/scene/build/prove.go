package build

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// A prover reads the same schema branch the validator is compiled from
// (branchSchema) and answers one question about an input: does the
// schema certainly accept it? It knows the keywords the branches use and
// answers no to anything else (a keyword it does not know, a number it
// cannot compare exactly), so that its yes can stand in for the
// validator's and its no only means "ask the validator", whose error
// message is then the one reported. Most inputs are plain (a box with a
// label, an arrow between two ids), and the validator, which builds an
// error tree and a location string for every value it visits, costs
// about twenty times as much as proving them.
//
// The rule it keeps: prove(s, v) is true only if s accepts v under JSON
// Schema 2020-12. TestProverNeverAcceptsWhatTheSchemaRefuses checks it
// against the validator on many generated inputs.
type prover struct {
	defs     *ojson.Object
	patterns sync.Map // pattern → *regexp.Regexp
}

// provers are the branches' provers, by element type.
var provers = sync.OnceValue(func() map[string]*branchProver {
	out := make(map[string]*branchProver, len(elementTypes))
	for _, t := range elementTypes {
		root := branchSchema(t)
		defs, _ := root.Get("$defs")
		d, _ := defs.(*ojson.Object)
		out[t] = &branchProver{root: root, p: &prover{defs: d}}
	}
	return out
})

type branchProver struct {
	root *ojson.Object
	p    *prover
}

// accepts reports whether the branch certainly accepts obj.
func (b *branchProver) accepts(obj *ojson.Object) bool {
	return b.p.prove(b.root, obj, nil)
}

// prove reports whether schema s certainly accepts v. Where v is an
// object, evaluated (if not nil) collects the member names s evaluated,
// for an unevaluatedProperties around it.
func (p *prover) prove(s any, v any, evaluated map[string]bool) bool {
	switch s := s.(type) {
	case bool:
		return s
	case *ojson.Object:
		return p.proveObject(s, v, evaluated)
	}
	return false
}

func (p *prover) proveObject(s *ojson.Object, v any, evaluated map[string]bool) bool {
	obj, isObj := v.(*ojson.Object)
	// Names evaluated at this level: by properties here, in $ref and in
	// allOf; what unevaluatedProperties counts.
	var here map[string]bool
	if isObj {
		here = map[string]bool{}
	}
	var unevaluated any
	ok := true
	s.Range(func(k string, kv any) bool {
		switch k {
		case "$schema", "$defs", "description":
		case "$ref":
			ref, _ := kv.(string)
			name, found := strings.CutPrefix(ref, "#/$defs/")
			target, _ := p.defs.Get(name)
			ok = found && target != nil && p.prove(target, v, here)
		case "allOf":
			list, _ := kv.([]any)
			for _, sub := range list {
				if ok = p.prove(sub, v, here); !ok {
					break
				}
			}
		case "type":
			ok = hasType(kv, v)
		case "enum":
			list, _ := kv.([]any)
			ok = false
			for _, e := range list {
				if same, sure := jsonEqual(e, v); !sure {
					return false
				} else if same {
					ok = true
					break
				}
			}
		case "const":
			same, sure := jsonEqual(kv, v)
			ok = sure && same
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
			ok = p.bound(k, kv, v)
		case "minLength", "maxLength":
			if str, isStr := v.(string); isStr {
				n, isInt := intOf(kv)
				runes := utf8.RuneCountInString(str)
				ok = isInt && (k == "minLength" && runes >= n || k == "maxLength" && runes <= n)
			}
		case "pattern":
			if str, isStr := v.(string); isStr {
				re := p.pattern(kv)
				ok = re != nil && re.MatchString(str)
			}
		case "items":
			if list, isList := v.([]any); isList {
				for _, e := range list {
					if ok = p.prove(kv, e, nil); !ok {
						break
					}
				}
			}
		case "minItems", "maxItems":
			if list, isList := v.([]any); isList {
				n, isInt := intOf(kv)
				ok = isInt && (k == "minItems" && len(list) >= n || k == "maxItems" && len(list) <= n)
			}
		case "uniqueItems":
			if list, isList := v.([]any); isList && kv == true {
				ok = uniqueStrings(list)
			}
		case "required":
			if isObj {
				names, _ := kv.([]any)
				for _, n := range names {
					name, _ := n.(string)
					if _, present := obj.Get(name); !present {
						ok = false
						break
					}
				}
			}
		case "properties":
			props, _ := kv.(*ojson.Object)
			if isObj && props != nil {
				obj.Range(func(name string, mv any) bool {
					if ps, declared := props.Get(name); declared {
						here[name] = true
						ok = p.prove(ps, mv, nil)
					}
					return ok
				})
			}
		case "additionalProperties":
			props, _ := s.Get("properties")
			declared, _ := props.(*ojson.Object)
			if isObj {
				obj.Range(func(name string, mv any) bool {
					if declared != nil {
						if _, is := declared.Get(name); is {
							return true
						}
					}
					ok = p.prove(kv, mv, nil)
					return ok
				})
				for _, name := range obj.Keys() {
					here[name] = true
				}
			}
		case "unevaluatedProperties":
			unevaluated = kv // after every other keyword of this level
		default:
			ok = false // a keyword this prover does not know
		}
		return ok
	})
	if !ok {
		return false
	}
	if unevaluated != nil && isObj {
		for _, name := range obj.Keys() {
			if here[name] {
				continue
			}
			mv, _ := obj.Get(name)
			if !p.prove(unevaluated, mv, nil) {
				return false
			}
			here[name] = true
		}
	}
	for name := range here {
		if evaluated != nil {
			evaluated[name] = true
		}
	}
	return true
}

// bound checks a numeric bound, on numbers it can compare exactly: the
// bounds are short decimals, and a value of at most 15 significant
// digits converts to the float64 that keeps its order with them.
func (p *prover) bound(k string, b, v any) bool {
	if _, isNum := v.(json.Number); !isNum {
		if _, isFloat := v.(float64); !isFloat {
			return true // the keyword applies to numbers only
		}
	}
	x, exact := exactFloat(v)
	lim, limExact := exactFloat(b)
	if !exact || !limExact {
		return false
	}
	switch k {
	case "minimum":
		return x >= lim
	case "maximum":
		return x <= lim
	case "exclusiveMinimum":
		return x > lim
	default:
		return x < lim
	}
}

func (p *prover) pattern(v any) *regexp.Regexp {
	src, _ := v.(string)
	if re, ok := p.patterns.Load(src); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil
	}
	p.patterns.Store(src, re)
	return re
}

// hasType reports whether v is of the JSON type t (a name or a list).
func hasType(t any, v any) bool {
	if list, ok := t.([]any); ok {
		for _, e := range list {
			if hasType(e, v) {
				return true
			}
		}
		return false
	}
	switch t {
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(*ojson.Object)
		return ok
	case "number":
		_, isNum := v.(json.Number)
		_, isFloat := v.(float64)
		return isNum || isFloat
	case "integer":
		// Only what is plainly an integer: "1.0" and "1e2" are too, but
		// the validator may say so.
		n, isNum := v.(json.Number)
		if !isNum {
			return false
		}
		_, err := strconv.ParseInt(string(n), 10, 64)
		return err == nil
	}
	return false
}

// jsonEqual compares a schema's enum or const value with v, as JSON
// values; sure is false where it cannot tell.
func jsonEqual(e, v any) (same, sure bool) {
	switch e := e.(type) {
	case string:
		s, ok := v.(string)
		return ok && s == e, true
	case nil:
		return v == nil, true
	case bool:
		b, ok := v.(bool)
		return ok && b == e, true
	}
	ei, eok := intOf(e)
	if !eok {
		return false, false
	}
	switch n := v.(type) {
	case json.Number:
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			return false, false // 5.0 is 5 to the validator
		}
		return int(i) == ei, true
	case string, bool, nil, []any, *ojson.Object:
		return false, true
	}
	return false, false
}

// intOf reads an integer a schema states (json.Number, int or float64).
func intOf(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		if n == float64(int(n)) {
			return int(n), true
		}
	case json.Number:
		i, err := strconv.ParseInt(string(n), 10, 64)
		return int(i), err == nil
	}
	return 0, false
}

// exactFloat is v as a float64 when that keeps its order with other short
// decimals: at most 15 significant digits.
func exactFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case json.Number:
		if significantDigits(string(n)) > 15 {
			return 0, false
		}
		f, err := strconv.ParseFloat(string(n), 64)
		return f, err == nil
	}
	return 0, false
}

// significantDigits counts the digits of a JSON number's mantissa, but
// leading zeros.
func significantDigits(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	n, leading := 0, true
	for _, c := range s {
		switch {
		case c == '0' && leading:
		case c >= '0' && c <= '9':
			leading = false
			n++
		}
	}
	return n
}

// uniqueStrings reports whether list holds distinct strings only.
func uniqueStrings(list []any) bool {
	seen := make(map[string]bool, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}
