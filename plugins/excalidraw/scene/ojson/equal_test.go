package ojson

import (
	"encoding/json"
	"testing"
)

func TestEqual(t *testing.T) {
	ab := New().Set("a", json.Number("1.0")).Set("b", []any{"x", nil})
	ba := New().Set("b", []any{"x", nil}).Set("a", 1)
	if !Equal(ab, ba, false) || Equal(ab, ba, true) {
		t.Fatal("member order must matter only when ordered")
	}
	if !Equal(ab, ab.Clone(), true) {
		t.Fatal("clone differs")
	}
	if Equal(json.Number("1"), "1", false) || Equal([]any{1}, []any{1, 2}, false) || Equal(New().Set("a", 1), New().Set("b", 1), false) {
		t.Fatal("different values compared equal")
	}
	if !Equal(json.Number("1e999"), json.Number("2e999"), false) || !Equal(json.Number("1e-999"), 0.0, false) {
		t.Fatal("out-of-range numbers must read as JavaScript reads them")
	}
	if !Equal(nil, nil, false) || !Equal(true, true, false) || Equal(true, false, false) {
		t.Fatal("literals")
	}
}
