package scene

import (
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestAppStateTypes(t *testing.T) {
	d := NewDocument()
	d.AppState().Set("viewBackgroundColor", num(1)).Set("gridSize", num(-4)).Set("gridModeEnabled", nil).Set("zoom", "anything")
	rep := Validate(d, Limits{})
	only(t, rep, CodeInvalidField, CodeInvalidField, CodeInvalidField)
	if !rep.Valid {
		t.Error("appState problems are warnings")
	}
	d.AppState().Set("viewBackgroundColor", "#fff").Set("gridSize", num(20)).Set("gridModeEnabled", true)
	only(t, Validate(d, Limits{}))
	d.appState = ojson.New()
	only(t, Validate(d, Limits{}))
}

// TestCheckAppState: the write-side check refuses what Excalidraw would
// not keep, with an error at the member; Validate reports the same thing
// as a warning, so a stored file stays readable.
func TestCheckAppState(t *testing.T) {
	long := make([]byte, MaxColorLength+1)
	for i := range long {
		long[i] = 'a'
	}
	bad := map[string]any{
		"gridSize -5":                  num(-5),
		"gridSize 0":                   num(0),
		"gridSize 20.5":                num(20.5),
		"gridSize 101":                 num(101),
		"gridSize a string":            "20",
		"viewBackgroundColor too long": string(long),
		"viewBackgroundColor empty":    "",
		"gridModeEnabled a string":     "yes",
	}
	for what, val := range bad {
		member, _, _ := strings.Cut(what, " ")
		a := ojson.New().Set("zoom", "ignored").Set(member, val)
		d, found := CheckAppState(a)
		if !found || d.Severity != SeverityError || d.Code != CodeInvalidField || d.Pointer != "/appState/"+member || d.Message == "" {
			t.Errorf("%s: %+v %v", what, d, found)
		}
		doc := NewDocument()
		doc.AppState().Set(member, val)
		rep := Validate(doc, Limits{})
		if ws := find(rep, CodeInvalidField); !rep.Valid || len(ws) != 1 || ws[0].Severity != SeverityWarning || ws[0].Message != d.Message {
			t.Errorf("%s: Validate %+v", what, rep.Diagnostics)
		}
	}
	good := ojson.New().Set("viewBackgroundColor", "#1e1e1e").Set("gridSize", num(MaxGridSize)).Set("gridModeEnabled", true).Set("zoom", num(-1))
	if d, found := CheckAppState(good); found {
		t.Errorf("good app state refused: %+v", d)
	}
	if d, found := CheckAppState(ojson.New().Set("gridSize", nil).Set("viewBackgroundColor", string(long[:MaxColorLength]))); found {
		t.Errorf("null grid, colour at the cap: %+v", d)
	}
}
