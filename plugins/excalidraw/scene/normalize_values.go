package scene

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// restore is written with JavaScript's `||` and `??`, which differ on
// falsy values (0, "", false): `strokeWidth || 2` turns a stroke width of
// 0 into 2, `roughness ?? 1` keeps a roughness of 0. These helpers give
// Go the same tests on ojson values, so that each default below can say
// which operator restore uses.

// jsFalsy reports whether JavaScript treats the member as false: absent
// (undefined), null, false, "", or a number equal to 0. (NaN cannot be
// written in JSON.)
func jsFalsy(v any, present bool) bool {
	if !present || v == nil {
		return true
	}
	switch t := v.(type) {
	case bool:
		return !t
	case string:
		return t == ""
	}
	f, st := toNumber(v)
	return st == numOK && f == 0
}

// jsNullish reports whether `??` would replace the member: absent or null.
func jsNullish(v any, present bool) bool { return !present || v == nil }

// jsNumber is the JSON value JSON.stringify writes for a number: null for
// NaN and ±Infinity, 0 for -0, otherwise Number#toString's digits.
func jsNumber(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	if f >= 0 && f < float64(len(smallInts)) && f == math.Trunc(f) {
		return smallInts[int(f)]
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	// JavaScript writes 1e-7 and 1e+21 where Go writes 1e-07 and 1e+21.
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	sign, digits := exp[:1], strings.TrimLeft(exp[1:], "0")
	return json.Number(mant + "e" + sign + digits)
}

// smallInts are the defaults and counts most repairs write, made once.
var smallInts = func() []any {
	out := make([]any, 128)
	for i := range out {
		out[i] = json.Number(strconv.Itoa(i))
	}
	return out
}()

// sameJSON reports whether two ojson values are equal as JavaScript would
// read them (member order aside).
func sameJSON(a, b any) bool { return ojson.Equal(a, b, false) }

// peek is Get for the members most elements lack (legacy ones). It scans
// the members: a Get that misses makes ojson index a large object, work
// wasted on the one lookup.
func peek(el *ojson.Object, key string) (v any, ok bool) {
	el.Range(func(k string, x any) bool {
		if k == key {
			v, ok = x, true
		}
		return !ok
	})
	return v, ok
}

// elemFix edits one element, recording each change that alters a value.
type elemFix struct {
	n  *normalizer
	i  int
	el *ojson.Object
}

// set sets key to v unless it already holds an equal value, and records
// the fix. A member that is new is appended, as JavaScript's object spread
// in restore appends the members an element lacks.
func (f elemFix) set(key string, v any, kind string) bool {
	if !f.put(key, v) {
		return false
	}
	f.n.fix(f.i, kind)
	return true
}

// put is set for a member that changes along with another, counted once
// under that one's kind (the version bump of a re-indexed element).
func (f elemFix) put(key string, v any) bool {
	if old, ok := f.el.Get(key); ok && sameJSON(old, v) {
		return false
	}
	f.el.Set(key, v)
	f.n.touched[f.i] = true
	return true
}

// or applies `el[key] || def`.
func (f elemFix) or(key string, def any) {
	if v, ok := f.el.Get(key); jsFalsy(v, ok) {
		f.set(key, def, FixDefaultField)
	}
}

// nullish applies `el[key] ?? def`.
func (f elemFix) nullish(key string, def any) {
	if v, ok := f.el.Get(key); jsNullish(v, ok) {
		f.set(key, def, FixDefaultField)
	}
}

// remove deletes a member restore removes.
func (f elemFix) remove(key, kind string) {
	if _, ok := peek(f.el, key); ok {
		f.el.Delete(key)
		f.n.fix(f.i, kind)
	}
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// dropNonFinite replaces the numbers of an element that overflow a
// float64 (1e999), anywhere in it, by null: JavaScript reads them as
// Infinity, which JSON.stringify writes as null, so that is what the
// editor saves, and restore then defaults.
func dropNonFinite(f elemFix) {
	if changed := finiteMembers(f.el); changed {
		f.n.fix(f.i, FixNonFinite)
		f.n.repaired(RepairNonFiniteNulled, f.i, "", "")
	}
}

// finiteMembers applies finiteValue to each member of o.
func finiteMembers(o *ojson.Object) bool {
	var nulled []string
	changed := false
	o.Range(func(k string, v any) bool {
		nv, c := finiteValue(v)
		if c {
			changed = true
			if nv == nil {
				nulled = append(nulled, k)
			}
		}
		return true
	})
	for _, k := range nulled {
		o.Set(k, nil)
	}
	return changed
}

// finiteValue returns v with its overflowing numbers replaced by null,
// and whether there were any. Containers are edited in place.
func finiteValue(v any) (any, bool) {
	switch t := v.(type) {
	case json.Number:
		if plainNumber(t) {
			return v, false
		}
		if _, st := toNumber(t); st == numNonFinite {
			return nil, true
		}
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, true
		}
	case []any:
		changed := false
		for i, x := range t {
			if nx, c := finiteValue(x); c {
				t[i], changed = nx, true
			}
		}
		return v, changed
	case *ojson.Object:
		if t == nil {
			return v, false
		}
		return v, finiteMembers(t)
	}
	return v, false
}

// plainNumber: a number too short to overflow, without an exponent (the
// common case, checked without parsing).
func plainNumber(n json.Number) bool {
	return len(n) < 300 && !strings.ContainsAny(string(n), "eE")
}
