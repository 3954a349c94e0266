package service

import (
	"testing"

	"github.com/dshgo/dsh/internal/restorecheck"
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
				t.Errorf("restore%v changed %s: %v", mode, strOf(el, "id"), changedKeys(el, got))
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
	s, dir := newTestService(t, scene.Limits{})

	editorLabels(t, s, dir, "l")
	if _, err := s.Apply(ctx, ApplyRequest{Name: "l", ExpectedRevision: 2, Operations: raws(
		`{"op":"update","id":"r","patch":{"opacity":40,"x":30}}`,
		`{"op":"update","id":"u","patch":{"x":25,"angle":0.5}}`,
		`{"op":"update","id":"e","patch":{"width":240,"angle":0.3}}`)}); err != nil {
		t.Fatal(err)
	}
	checkRestoreKeeps(t, node, checkStored(t, dir, "l"))

	if _, err := s.Create(ctx, CreateRequest{Name: "t", Elements: raws(
		`{"type":"text","id":"t","x":50,"y":60,"width":200,"text":"Several words that fit"}`,
		`{"type":"rectangle","id":"r","x":300,"y":0,"width":160,"height":80,"label":{"text":"box"}}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, ApplyRequest{Name: "t", ExpectedRevision: 1, Operations: raws(
		`{"op":"update","id":"t","patch":{"text":"`+longText+`","fontSize":28}}`,
		`{"op":"update","id":"r","patch":{"text":"`+longText+`"}}`)}); err != nil {
		t.Fatal(err)
	}
	checkRestoreKeeps(t, node, checkStored(t, dir, "t"))

	bound(t, s, "b")
	if _, err := s.Apply(ctx, ApplyRequest{Name: "b", ExpectedRevision: 1, Operations: raws(
		`{"op":"update","id":"e","patch":{"width":320,"height":200}}`,
		`{"op":"update","id":"r","patch":{"x":560,"y":80,"angle":0.4}}`,
		`{"op":"update","id":"s","patch":{"strokeWidth":1}}`)}); err != nil {
		t.Fatal(err)
	}
	checkRestoreKeeps(t, node, checkStored(t, dir, "b"))

	if _, err := s.Create(ctx, CreateRequest{Name: "e", Actor: "ui"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(ctx, SaveRequest{Name: "e", Scene: []byte(elbowScene), ExpectedRevision: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, ApplyRequest{Name: "e", ExpectedRevision: 2, Operations: raws(
		`{"op":"update","id":"b","patch":{"x":250,"width":200}}`)}); err != nil {
		t.Fatal(err)
	}
	checkRestoreKeeps(t, node, checkStored(t, dir, "e"))
}
