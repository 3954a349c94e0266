package service

import (
	"fmt"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// A document with many errors is refused with a bounded list of
// diagnostics and the total count.
func TestFinishBoundsDiagnostics(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	els := ""
	for i := range 30 {
		if i > 0 {
			els += ","
		}
		els += fmt.Sprintf(`{"type":"rectangle","id":"r%d","x":0,"y":0,"width":1,"height":1,"opacity":"bad"}`, i)
	}
	doc, err := scene.Parse([]byte(`{"type":"excalidraw","version":2,"elements":[`+els+`]}`), scene.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.finish(doc)
	se := wantCode(t, err, sceneerr.InvalidScene)
	if d, _ := se.Details["diagnostics"].([]scene.Diagnostic); len(d) != maxDiagnosticsInError || se.Details["errors"].(int) < 30 {
		t.Fatalf("%v", se.Details)
	}
}
