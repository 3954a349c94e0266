package engine

import (
	"testing"

	"github.com/dshgo/dsh/internal/e2e/restorecheck"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// checkRestoreKeeps runs the stored scene's elements through Excalidraw
// 0.18.1's own restoreElements, plain and repairing bindings as it does
// when it opens a file, and fails on any element it changes.
func checkRestoreKeeps(t *testing.T, node string, doc *scene.Document) {
	t.Helper()
	els := doc.Elements()
	in := make([]any, len(els))
	for i, el := range els {
		in[i] = el
	}
	data, err := ojson.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range [][]string{nil, {"--repair-bindings"}} {
		v, err := ojson.Decode(restorecheck.Run(t, node, "restore.mjs", data, mode...), ojson.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := v.([]any)
		if len(out) != len(els) {
			t.Fatalf("restore%v returned %d elements for %d", mode, len(out), len(els))
		}
		for i, el := range els {
			got, _ := out[i].(*ojson.Object)
			if got == nil || !ojson.Equal(el, got, true) {
				t.Errorf("restore%v changed %s: %v", mode, scene.StringOf(el, "id"), changedKeys(el, got))
			}
		}
	}
}

// What the updates of this topic write (labels carried, fixed-width text
// re-wrapped, arrows re-attached to moved, resized and rotated shapes,
// elbow arrows kept axis-aligned) is a fixed point of Excalidraw's
// restore: the editor opens it and changes nothing.
func TestUpdatedScenesSurviveRestore(t *testing.T) {
	node := restorecheck.Require(t)
	s := newStored(t)

	editorLabels(t, s)
	if _, err := s.apply(
		`{"op":"update","id":"r","patch":{"opacity":40,"x":30}}`,
		`{"op":"update","id":"u","patch":{"x":25,"angle":0.5}}`,
		`{"op":"update","id":"e","patch":{"width":240,"angle":0.3}}`); err != nil {
		t.Fatal(err)
	}
	checkRestoreKeeps(t, node, s.doc())

	s.create(
		`{"type":"text","id":"t","x":50,"y":60,"width":200,"text":"Several words that fit"}`,
		`{"type":"rectangle","id":"r","x":300,"y":0,"width":160,"height":80,"label":{"text":"box"}}`)
	if _, err := s.apply(
		`{"op":"update","id":"t","patch":{"text":"`+longText+`","fontSize":28}}`,
		`{"op":"update","id":"r","patch":{"text":"`+longText+`"}}`); err != nil {
		t.Fatal(err)
	}
	checkRestoreKeeps(t, node, s.doc())

	bound(t, s)
	if _, err := s.apply(
		`{"op":"update","id":"e","patch":{"width":320,"height":200}}`,
		`{"op":"update","id":"r","patch":{"x":560,"y":80,"angle":0.4}}`,
		`{"op":"update","id":"s","patch":{"strokeWidth":1}}`); err != nil {
		t.Fatal(err)
	}
	checkRestoreKeeps(t, node, s.doc())
	s.save([]byte(elbowScene))
	if _, err := s.apply(
		`{"op":"update","id":"b","patch":{"x":250,"width":200}}`); err != nil {
		t.Fatal(err)
	}
	checkRestoreKeeps(t, node, s.doc())
}
