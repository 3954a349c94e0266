package scene

import "testing"

func TestTypesLegacyAreWarnings(t *testing.T) {
	for _, ty := range []string{"draw", "selection"} {
		rep := Validate(docOf(rect("x").Set("type", ty)), Limits{})
		only(t, rep, CodeUnsupportedType)
		if !rep.Valid {
			t.Errorf("%s must be a warning", ty)
		}
	}
	rep := Validate(docOf(rect("x").Set("type", "mermaid")), Limits{})
	only(t, rep, CodeUnsupportedType)
	if rep.Valid {
		t.Error("an unknown type is an error")
	}
}
