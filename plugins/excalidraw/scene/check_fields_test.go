package scene

import (
	"strings"
	"testing"
)

func TestFieldsDefaultedAreOneWarningPerElement(t *testing.T) {
	r := rect("r")
	for _, k := range []string{"updated", "link", "locked", "index", "frameId", "boundElements"} {
		r.Delete(k)
	}
	r.Set("seed", nil)
	rep := Validate(docOf(r), Limits{})
	only(t, rep, CodeMissingField)
	d := rep.Diagnostics[0]
	if d.Severity != SeverityWarning || d.Pointer != "/elements/0" || d.ElementID != "r" {
		t.Errorf("%s", d)
	}
	for _, f := range []string{"updated", "link", "locked", "index", "frameId", "boundElements", "seed (null)"} {
		if !strings.Contains(d.Message, f) {
			t.Errorf("message does not name %s: %s", f, d.Message)
		}
	}
}

func TestFieldsLegacyBoundElementIdsReplaceBoundElements(t *testing.T) {
	r := rect("r").Set("boundElementIds", []any{})
	r.Delete("boundElements")
	only(t, Validate(docOf(r), Limits{}))
}

func TestFieldsNotCheckedOnUnsupportedTypes(t *testing.T) {
	only(t, Validate(docOf(rect("x").Set("type", "table").Set("x", "bad")), Limits{}), CodeUnsupportedType)
}

func TestFieldsOfKeptTypes(t *testing.T) {
	e := baseElement("e", "embeddable", 0, 0, 10, 10).Set("link", "https://example.com")
	m := baseElement("m", "magicframe", 0, 0, 10, 10).Set("name", nil)
	i := baseElement("i", "iframe", 0, 0, 10, 10).Set("opacity", "x")
	rep := Validate(docOf(e, m, i), Limits{})
	only(t, rep, CodeInvalidField)
	if rep.Diagnostics[0].Pointer != "/elements/2/opacity" {
		t.Error(rep.Diagnostics[0])
	}
}

func TestFieldsWrongTypes(t *testing.T) {
	cases := map[string]any{
		"strokeColor": 1.0, "locked": "no", "link": 3.0, "frameId": true,
		"groupIds": "g", "boundElements": "x", "customData": "x", "roundness": []any{},
	}
	for field, v := range cases {
		r := rect("r").Set(field, v)
		rep := Validate(docOf(r), Limits{})
		got := find(rep, CodeInvalidField)
		if len(got) != 1 || got[0].Severity != SeverityError || got[0].Pointer != "/elements/0/"+field {
			t.Errorf("%s = %v: %s", field, v, dump(rep.Diagnostics))
		}
	}
}

func TestFieldsRoundnessType(t *testing.T) {
	r := rect("r").Set("roundness", roundnessOf("x"))
	rep := Validate(docOf(r), Limits{})
	if got := find(rep, CodeInvalidField); len(got) != 1 || got[0].Pointer != "/elements/0/roundness/type" {
		t.Fatal(dump(rep.Diagnostics))
	}
}
