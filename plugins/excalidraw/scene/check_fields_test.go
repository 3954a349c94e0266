package scene

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// A defaulted field is one warning per scene, counting and naming the
// elements without it; fields missing from the same elements share it.
func TestFieldsDefaultedAreOneWarningPerField(t *testing.T) {
	var els []*ojson.Object
	for i := range 5 {
		r := rect(fmt.Sprint("r", i))
		r.Delete("updated")
		if i == 0 {
			for _, k := range []string{"link", "locked", "index", "frameId", "boundElements"} {
				r.Delete(k)
			}
			r.Set("seed", nil)
		}
		els = append(els, r)
	}
	rep := Validate(docOf(els...), Limits{})
	only(t, rep, CodeMissingField, CodeMissingField)
	updated, rest := rep.Diagnostics[0], rep.Diagnostics[1]
	if rest.Count == 5 {
		updated, rest = rest, updated
	}
	if updated.Severity != SeverityWarning || updated.Pointer != "/elements/0/updated" || updated.ElementID != "r0" || updated.Count != 5 ||
		updated.Message != `updated is absent or null in 5 elements ("r0", "r1", "r2", …); Excalidraw fills in defaults` {
		t.Errorf("%+v", updated)
	}
	if rest.Pointer != "/elements/0" || rest.ElementID != "r0" || rest.Count != 1 {
		t.Errorf("%+v", rest)
	}
	for _, f := range []string{"link", "locked", "index", "frameId", "boundElements", "seed"} {
		if !strings.Contains(rest.Message, f) {
			t.Errorf("message does not name %s: %s", f, rest.Message)
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
