package scene

import "testing"

func TestFieldRules(t *testing.T) {
	for _, s := range []shape{shapeStringOrNull, shapeBoundElements, shapeBinding, shapeRoundness, shapeObjectOrNull, shapeAny} {
		if !s.nullable() {
			t.Errorf("shape %d must accept null", s)
		}
	}
	for _, s := range []shape{shapeNumber, shapeString, shapeBool, shapeStrings, shapePoints, shapeNumbers, shapeScale} {
		if s.nullable() {
			t.Errorf("shape %d must treat null as missing", s)
		}
	}
	for _, ty := range SupportedTypes() {
		seen := map[string]bool{}
		for _, r := range append(append([]fieldRule{}, baseRules...), rulesFor(ty)...) {
			if seen[r.name] {
				t.Errorf("%s: rule %s twice", ty, r.name)
			}
			seen[r.name] = true
		}
	}
	if rulesFor("rectangle") != nil || rulesFor("text") == nil {
		t.Error("rulesFor")
	}
}

// TestRequiredFieldsAreErrors pins which missing fields restore cannot
// default.
func TestRequiredFieldsAreErrors(t *testing.T) {
	for _, c := range []struct{ typ, field string }{{"text", "fontSize"}, {"text", "fontFamily"}, {"freedraw", "points"}} {
		var e = textEl("e", "")
		if c.typ == "freedraw" {
			e = freedrawEl("e")
		}
		e.Delete(c.field)
		rep := Validate(docOf(e), Limits{})
		only(t, rep, CodeMissingField)
		if rep.Valid || rep.Diagnostics[0].Pointer != "/elements/0/"+c.field {
			t.Errorf("%s.%s: %s", c.typ, c.field, dump(rep.Diagnostics))
		}
	}
}
