package scene

import (
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
