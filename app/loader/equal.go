package loader

// jsonEqual compares two JSON values by meaning rather than by Go type: a
// number written as 3 in one file version and 3.0 in the next, or a config
// decoded elsewhere with json.Number, must not count as a change that
// restarts a plugin. A nil map and an empty map are equal for the same reason
// (config omitted versus "config: {}").
func jsonEqual(a, b any) bool {
	if na, ok := toNumber(a); ok {
		nb, ok := toNumber(b)
		return ok && na.cmp(nb) == 0
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return b == nil && len(x) == 0
		}
		return mapsEqual(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case nil:
		if m, ok := b.(map[string]any); ok {
			return len(m) == 0
		}
		return b == nil
	case string, bool:
		return a == b
	}
	return false
}

func mapsEqual(x, y map[string]any) bool {
	if len(x) != len(y) {
		return false
	}
	for k, xv := range x {
		yv, ok := y[k]
		if !ok || !jsonEqual(xv, yv) {
			return false
		}
	}
	return true
}
