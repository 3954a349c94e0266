package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Patching a label's text by the label's own id re-wraps it in its
// container; patching an arrow's points re-bases them.
func TestUpdateLabelByIDAndPoints(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	lid := labelID(t, checkStored(t, dir, "flow"), "a")
	_, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(
		`{"op":"update","id":"`+lid+`","patch":{"text":"Begin"}}`,
		`{"op":"update","id":"ab","patch":{"points":[[0,0],[50,50],[200,0]]}}`,
		`{"op":"update","id":"a","patch":{"fontSize":28,"roundness":"sharp","groupIds":["g1"],"link":"https://example.com","locked":true}}`)})
	if err != nil {
		t.Fatal(err)
	}
	doc := checkStored(t, dir, "flow")
	l := element(t, doc, lid)
	if strOf(l, "originalText") != "Begin" || num(l, "fontSize") != 28 {
		t.Fatalf("label %v", l)
	}
	if ab := element(t, doc, "ab"); len(pointsOf(ab)) != 3 || num(ab, "width") != 200 {
		t.Fatalf("arrow %v", ab)
	}
	a := element(t, doc, "a")
	if !a.IsNull("roundness") || strOf(a, "link") != "https://example.com" {
		t.Fatalf("container %v", a)
	}
}

// One Apply is one version step per element, however many operations
// touch it.
func TestUpdateBumpsOncePerCall(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	v0 := num(element(t, checkStored(t, dir, "flow"), "b"), "version")
	n0 := num(element(t, checkStored(t, dir, "flow"), "b"), "versionNonce")
	_, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(
		`{"op":"update","id":"b","patch":{"x":1}}`, `{"op":"update","id":"b","patch":{"y":1}}`)})
	if err != nil {
		t.Fatal(err)
	}
	b := element(t, checkStored(t, dir, "flow"), "b")
	if num(b, "version") != v0+1 || num(b, "versionNonce") == n0 || num(b, "updated") != 1793136000000 {
		t.Fatalf("b %v", b)
	}
}
