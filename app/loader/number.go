package loader

import (
	"encoding/json"
	"math"
)

// number is a JSON number that remembers whether it was integral. Config
// values come from YAML as int64 or float64 while schema keywords come from
// JSON as json.Number; comparing and clamping across those types must not
// turn an integer setting into a float one (a plugin reading "port" as int64
// would break) nor lose precision on large integers.
type number struct {
	i     int64
	f     float64
	isInt bool
}

// toNumber accepts every numeric type the package produces or receives.
func toNumber(v any) (number, bool) {
	switch x := v.(type) {
	case int64:
		return number{i: x, f: float64(x), isInt: true}, true
	case int:
		return number{i: int64(x), f: float64(x), isInt: true}, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return number{i: int64(x), f: x, isInt: true}, true
		}
		return number{f: x}, true
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return number{i: i, f: float64(i), isInt: true}, true
		}
		f, err := x.Float64()
		if err != nil {
			return number{}, false
		}
		return toNumber(f)
	}
	return number{}, false
}

// cmp returns -1, 0 or 1 as a is less than, equal to or greater than b.
func (a number) cmp(b number) int {
	if a.isInt && b.isInt {
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	}
	switch {
	case a.f < b.f:
		return -1
	case a.f > b.f:
		return 1
	}
	return 0
}

// clampTo returns the bound as a value of the same kind as v: an int64
// setting stays int64 (rounded inwards when the bound is fractional, so the
// result is still within bounds), anything else becomes float64.
func clampTo(v any, bound number, isMax bool) any {
	if _, ok := v.(int64); !ok {
		return bound.f
	}
	if bound.isInt {
		return bound.i
	}
	if isMax {
		return int64(math.Floor(bound.f))
	}
	return int64(math.Ceil(bound.f))
}

// jsonValue deep-copies a value decoded from a schema, turning json.Number
// into int64 or float64 so that filled-in defaults have the same types as
// values written in the YAML file.
func jsonValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	}
	return v
}
