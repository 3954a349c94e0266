package engine

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
)

// TestUpdatedTextKeepsItsMeasureMarkTrue: an update that changes a text
// to one the family's fonts cover clears the mark the editor re-measures
// by, and one that changes it to text outside them sets it, on free text
// and on labels alike.
func TestUpdatedTextKeepsItsMeasureMarkTrue(t *testing.T) {
	s := newStored(t)
	s.create(
		`{"type":"text","id":"t","x":0,"y":0,"text":"नमस्ते"}`,
		`{"type":"rectangle","id":"r","x":0,"y":100,"width":160,"height":80,"label":{"text":"hello"}}`,
	)
	marked := func(id string) bool {
		el := element(t, s.doc(), id)
		cd, _ := el.Object("customData")
		return cd != nil && cd.Has(build.MeasureMark)
	}
	label := func() string {
		for _, el := range s.doc().Elements() {
			if scene.StringOf(el, "containerId") == "r" {
				return scene.StringOf(el, "id")
			}
		}
		t.Fatal("no label")
		return ""
	}
	if !marked("t") || marked(label()) {
		t.Fatalf("created: text marked %v, label marked %v", marked("t"), marked(label()))
	}
	if _, err := s.apply(
		`{"op":"update","id":"t","patch":{"text":"hello"}}`,
		`{"op":"update","id":"r","patch":{"text":"مرحبا"}}`,
	); err != nil {
		t.Fatal(err)
	}
	if marked("t") || !marked(label()) {
		t.Fatalf("updated: text marked %v, label marked %v", marked("t"), marked(label()))
	}
}
