package ojson

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
)

// Equal reports whether two values mean the same to a JavaScript reader:
// numbers by value (1.0 equals 1; out-of-range numbers read as ±Infinity),
// arrays element-wise, objects member-wise. With ordered, objects must
// also list their members in the same order.
func Equal(a, b any, ordered bool) bool {
	if fa, ok := jsNumber(a); ok {
		fb, ok := jsNumber(b)
		return ok && fa == fb
	}
	switch x := a.(type) {
	case *Object:
		y, ok := b.(*Object)
		if !ok || x == nil || y == nil {
			return ok && x == y
		}
		if x.Len() != y.Len() || (ordered && !slices.Equal(x.keys, y.keys)) {
			return false
		}
		for i, k := range x.keys {
			yv, ok := y.Get(k)
			if !ok || !Equal(x.vals[i], yv, ordered) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i], ordered) {
				return false
			}
		}
		return true
	}
	return a == b
}

// jsNumber reads a number the way JavaScript would: overflow is ±Infinity
// and underflow zero rather than an error.
func jsNumber(v any) (float64, bool) {
	if n, ok := v.(json.Number); ok {
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, false
		}
		return f, true
	}
	return AsFloat(v)
}
