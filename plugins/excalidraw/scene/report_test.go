package scene

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestReport(t *testing.T) {
	r := Report{Diagnostics: []Diagnostic{
		{Code: CodeMissingField, Severity: SeverityWarning, Message: "w"},
		{Code: CodeDuplicateID, Severity: SeverityError, Message: "e1", Pointer: "/elements/1/id", ElementID: "a"},
		{Code: CodeDuplicateID, Severity: SeverityError, Message: "e2"},
	}}
	if r.Valid || len(r.Errors()) != 2 || r.Count(CodeDuplicateID) != 2 || r.Count(CodeTooDeep) != 0 {
		t.Fatalf("%+v", r)
	}
	err := r.Err()
	se, ok := err.(*sceneerr.Error)
	if !ok || se.Code != sceneerr.DuplicateID || se.Details["errors"] != 2 || se.Details["pointer"] != "/elements/1/id" {
		t.Fatalf("Err = %#v", err)
	}
	if ok := Validate(NewDocument(), Limits{}); !ok.Valid || ok.Err() != nil || ok.Diagnostics == nil {
		t.Fatalf("empty report %+v", ok)
	}
}

func TestReportJSON(t *testing.T) {
	r := Validate(validScene(), Limits{})
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"valid":true`, `"diagnostics":[]`, `"byType":{`, `"bounds":{"minX":`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("missing %s in %s", want, b)
		}
	}
	d := Diagnostic{Code: CodeInvalidField, Severity: SeverityError, Message: "m", Pointer: "/x"}
	b, _ = json.Marshal(d)
	if string(b) != `{"code":"invalid_field","severity":"error","message":"m","pointer":"/x"}` {
		t.Errorf("diagnostic JSON %s", b)
	}
}

func TestReportCapsDiagnostics(t *testing.T) {
	els := make([]*ojson.Object, 0, 30)
	for i := range 30 {
		els = append(els, rect("r"+strconv.Itoa(i)).Set("fillStyle", "dots")) // 30 warnings
	}
	els = append(els, rect("bad").Set("x", "1"), rect("bad2").Set("x", "2")) // then 2 errors
	rep := Validate(docOf(els...), Limits{MaxDiagnostics: 10})
	if len(rep.Diagnostics) != 11 || rep.Omitted != 21 || rep.Valid {
		t.Fatalf("listed %d, omitted %d, valid %v", len(rep.Diagnostics), rep.Omitted, rep.Valid)
	}
	if last := rep.Diagnostics[10]; last.Severity != SeverityError || last.ElementID != "bad" {
		t.Errorf("the first error must be listed: %s", last)
	}
	if rep.Err() == nil {
		t.Error("Err must report the listed error")
	}
}
