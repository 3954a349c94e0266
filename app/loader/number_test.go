package loader

import (
	"encoding/json"
	"reflect"
	"testing"
)

func num(t *testing.T, v any) number {
	t.Helper()
	n, ok := toNumber(v)
	if !ok {
		t.Fatalf("toNumber(%#v) failed", v)
	}
	return n
}

func TestNumberCompareAcrossTypes(t *testing.T) {
	cases := []struct {
		a, b any
		want int
	}{
		{int64(1), json.Number("2"), -1},
		{2.5, json.Number("2"), 1},
		{int64(3), 3.0, 0},
		{json.Number("1e3"), int64(1000), 0},
		{int64(9007199254740993), int64(9007199254740992), 1}, // beyond float64 precision
		{-0.5, int(0), -1},
	}
	for _, c := range cases {
		if got := num(t, c.a).cmp(num(t, c.b)); got != c.want {
			t.Errorf("cmp(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestToNumberRejectsNonNumbers(t *testing.T) {
	for _, v := range []any{"1", true, nil, json.Number("x")} {
		if _, ok := toNumber(v); ok {
			t.Errorf("toNumber(%#v) succeeded", v)
		}
	}
}

func TestClampToKeepsKind(t *testing.T) {
	cases := []struct {
		v     any
		bound any
		isMax bool
		want  any
	}{
		{int64(500), json.Number("100"), true, int64(100)},
		{int64(0), json.Number("1.5"), false, int64(2)},
		{int64(9), json.Number("7.5"), true, int64(7)},
		{9.5, json.Number("7"), true, 7.0},
	}
	for _, c := range cases {
		got := clampTo(c.v, num(t, c.bound), c.isMax)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("clampTo(%#v, %v) = %#v, want %#v", c.v, c.bound, got, c.want)
		}
	}
}

func TestJSONValueConvertsAndCopies(t *testing.T) {
	src := map[string]any{"n": json.Number("3"), "f": json.Number("0.5"), "l": []any{json.Number("1")}}
	got := jsonValue(src).(map[string]any)
	want := map[string]any{"n": int64(3), "f": 0.5, "l": []any{int64(1)}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v", got)
	}
	got["l"].([]any)[0] = "changed"
	if src["l"].([]any)[0] != json.Number("1") {
		t.Fatal("jsonValue did not copy")
	}
}
