package service

import (
	"bytes"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestApplyAddUpdateDelete(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	res, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(
		`{"op":"add","element":{"type":"diamond","id":"c","x":0,"y":300,"width":100,"height":100}}`,
		`{"op":"add","element":{"type":"arrow","id":"bc","startElementId":"b","endElementId":"c"}}`,
		`{"op":"update","id":"b","patch":{"strokeColor":"#e03131"}}`,
	)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Revision != 2 || res.PreviousRevision != 1 || res.Operations.Added != 2 || res.Operations.Updated != 1 {
		t.Fatalf("result %+v ops %+v", res, res.Operations)
	}
	if got := res.Operations.IDs; len(got) != 3 || got[0] != "c" || got[1] != "bc" || got[2] != "b" {
		t.Fatalf("ids %v", got)
	}
	doc := checkStored(t, dir, "flow")
	if str(element(t, doc, "bc"), "endBinding", "elementId") != "c" || !hasBound(element(t, doc, "b"), "bc") {
		t.Fatal("added arrow not bound both ways")
	}
	if v := scene.NumberOf(element(t, doc, "b"), "version"); v < 2 {
		t.Fatalf("b version %v", v)
	}

	// Deleting the labelled, bound rectangle deletes its label and
	// unbinds the arrow.
	label := labelID(t, doc, "a")
	res, err = s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 2, Operations: raws(`{"op":"delete","id":"a"}`)})
	if err != nil {
		t.Fatal(err)
	}
	doc = checkStored(t, dir, "flow")
	for _, id := range []string{"a", label} {
		if d, _ := element(t, doc, id).Bool("isDeleted"); !d {
			t.Fatalf("%s (the rectangle or its label) not deleted", id)
		}
	}
	ab := element(t, doc, "ab")
	if !ab.IsNull("startBinding") || str(ab, "endBinding", "elementId") != "b" {
		t.Fatalf("arrow bindings after delete: %v", ab)
	}
	if res.Summary == nil || len(res.Summary.Elements) != 0 || res.Summary.DeletedCount != 2 {
		t.Fatalf("summary %+v", res.Summary)
	}
	_, err = s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 3, Operations: raws(`{"op":"update","id":"a","patch":{"x":1}}`)})
	wantCode(t, err, sceneerr.NotFound)
}

func labelID(t *testing.T, doc *scene.Document, container string) string {
	t.Helper()
	for _, el := range doc.Elements() {
		if str(el, "containerId") == container {
			return str(el, "id")
		}
	}
	t.Fatalf("%s has no label", container)
	return ""
}

func TestApplyOneBadOpWritesNothing(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	before := fileBytes(t, dir, "flow")
	_, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(
		`{"op":"update","id":"b","patch":{"x":10}}`,
		`{"op":"delete","id":"a"}`,
		`{"op":"update","id":"nope","patch":{"x":1}}`,
	)})
	if se := wantCode(t, err, sceneerr.NotFound); se.Details["pointer"] != "/operations/2/id" {
		t.Fatal(se.Details)
	}
	if !bytes.Equal(before, fileBytes(t, dir, "flow")) {
		t.Fatal("file changed")
	}
	r, _ := s.Read(ctx, ReadRequest{Name: "flow"})
	if r.Revision != 1 {
		t.Fatalf("revision %d", r.Revision)
	}
}

func TestApplyPatchRejectsNonVisualField(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	cases := map[string]string{
		`{"op":"update","id":"b","patch":{"x":1,"version":9}}`:          "/operations/0/patch/version",
		`{"op":"update","id":"b","patch":{"id":"z"}}`:                   "/operations/0/patch/id",
		`{"op":"update","id":"b","patch":{"opacity":500}}`:              "/operations/0/patch/opacity",
		`{"op":"update","id":"b","patch":{"text":"no label"}}`:          "/operations/0/patch/text",
		`{"op":"update","id":"ab","patch":{"width":3}}`:                 "/operations/0/patch/width",
		`{"op":"update","id":"b","patch":{"points":[[0,0],[1,1]]}}`:     "/operations/0/patch/points",
		`{"op":"update","id":"b","patch":{"x":1},"extra":1}`:            "/operations/0/extra",
		`{"op":"move","id":"b"}`:                                        "/operations/0/op",
		`{"op":"add","element":{"type":"rectangle","x":0,"y":0,"z":1}}`: "/operations/0/element/z",
	}
	for op, ptr := range cases {
		_, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(op)})
		se := wantCode(t, err, sceneerr.InvalidOperation)
		if se.Details["pointer"] != ptr {
			t.Errorf("%s: pointer %v, want %s", op, se.Details["pointer"], ptr)
		}
	}
	_, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1})
	wantCode(t, err, sceneerr.InvalidOperation)
}

func TestApplyAppStateAndLinearPatch(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	_, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, AppState: []byte(`{"gridSize":20,"gridModeEnabled":true}`),
		Operations: raws(`{"op":"update","id":"ab","patch":{"endArrowhead":"triangle","strokeStyle":"dashed","roundness":"round"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	doc := checkStored(t, dir, "flow")
	if g, _ := doc.AppState().Number("gridSize"); g != 20 {
		t.Fatalf("appState %v", doc.AppState())
	}
	if str(element(t, doc, "ab"), "endArrowhead") != "triangle" {
		t.Fatal("arrowhead not set")
	}
}
