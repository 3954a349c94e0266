package loader

import (
	"encoding/json"
	"testing"
)

func TestJSONEqual(t *testing.T) {
	equal := [][2]any{
		{int64(3), 3.0},
		{json.Number("3"), int64(3)},
		{"a", "a"},
		{true, true},
		{nil, nil},
		{map[string]any(nil), map[string]any{}},
		{nil, map[string]any{}},
		{map[string]any{}, nil},
		{[]any{int64(1), "x"}, []any{1.0, "x"}},
		{map[string]any{"a": map[string]any{"b": []any{nil}}}, map[string]any{"a": map[string]any{"b": []any{nil}}}},
	}
	for _, c := range equal {
		if !jsonEqual(c[0], c[1]) {
			t.Errorf("jsonEqual(%#v, %#v) = false", c[0], c[1])
		}
	}
	different := [][2]any{
		{int64(3), 3.5},
		{int64(1), "1"},
		{"a", "b"},
		{true, false},
		{nil, false},
		{[]any{}, map[string]any{}},
		{[]any{int64(1)}, []any{int64(1), int64(2)}},
		{map[string]any{"a": int64(1)}, map[string]any{"b": int64(1)}},
		{map[string]any{"a": int64(1)}, map[string]any{"a": int64(1), "b": nil}},
		{map[string]any{"a": int64(1)}, nil},
		{struct{}{}, struct{}{}},
	}
	for _, c := range different {
		if jsonEqual(c[0], c[1]) {
			t.Errorf("jsonEqual(%#v, %#v) = true", c[0], c[1])
		}
	}
}
