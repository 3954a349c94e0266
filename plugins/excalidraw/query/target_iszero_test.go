package query

import "testing"

func TestTargetIsZero(t *testing.T) {
	if !(Target{}).IsZero() {
		t.Fatal("the zero target is not zero")
	}
	for _, tg := range []Target{{IDs: []string{"a"}}, {FrameName: "f"}, {Types: []string{"text"}}, {TextContains: "x"}, {IncludeDeleted: true}} {
		if tg.IsZero() {
			t.Errorf("%+v is zero", tg)
		}
	}
}
