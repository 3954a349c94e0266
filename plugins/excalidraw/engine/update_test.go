package engine

import (
	"bytes"
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Patching a label's text by the label's own id re-wraps it in its
// container; patching an arrow's points re-bases them.
func TestUpdateLabelByIDAndPoints(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	lid := labelID(t, s.doc(), "a")
	_, err := s.apply(
		`{"op":"update","id":"`+lid+`","patch":{"text":"Begin"}}`,
		`{"op":"update","id":"ab","patch":{"points":[[0,0],[50,50],[200,0]]}}`,
		`{"op":"update","id":"a","patch":{"fontSize":28,"roundness":"sharp","groupIds":["g1"],"link":"https://example.com","locked":true}}`)
	if err != nil {
		t.Fatal(err)
	}
	doc := s.doc()
	l := element(t, doc, lid)
	if scene.StringOf(l, "originalText") != "Begin" || scene.NumberOf(l, "fontSize") != 28 {
		t.Fatalf("label %v", l)
	}
	if ab := element(t, doc, "ab"); len(pointsOf(ab)) != 3 || scene.NumberOf(ab, "width") != 200 {
		t.Fatalf("arrow %v", ab)
	}
	a := element(t, doc, "a")
	if !a.IsNull("roundness") || scene.StringOf(a, "link") != "https://example.com" {
		t.Fatalf("container %v", a)
	}
}

// One Apply is one version step per element, however many operations
// touch it.
func TestUpdateBumpsOncePerCall(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	v0 := scene.NumberOf(element(t, s.doc(), "b"), "version")
	n0 := scene.NumberOf(element(t, s.doc(), "b"), "versionNonce")
	_, err := s.apply(
		`{"op":"update","id":"b","patch":{"x":1}}`, `{"op":"update","id":"b","patch":{"y":1}}`)
	if err != nil {
		t.Fatal(err)
	}
	b := element(t, s.doc(), "b")
	if scene.NumberOf(b, "version") != v0+1 || scene.NumberOf(b, "versionNonce") == n0 || scene.NumberOf(b, "updated") != 1793136000000 {
		t.Fatalf("b %v", b)
	}
}

func TestMoveKeepsLabelAndArrows(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	before := s.doc()
	lb := element(t, before, labelID(t, before, "a")).Clone()
	ab := element(t, before, "ab").Clone()
	_, err := s.apply(`{"op":"update","id":"a","patch":{"x":40,"y":100}}`)
	if err != nil {
		t.Fatal(err)
	}
	after := s.doc()
	la := element(t, after, labelID(t, after, "a"))
	if math.Abs(scene.NumberOf(la, "x")-scene.NumberOf(lb, "x")-40) > 0.01 || math.Abs(scene.NumberOf(la, "y")-scene.NumberOf(lb, "y")-100) > 0.01 {
		t.Fatalf("label did not follow: %v → %v", lb, la)
	}
	aa := element(t, after, "ab")
	if math.Abs(scene.NumberOf(aa, "x")-scene.NumberOf(ab, "x")-40) > 0.01 || math.Abs(scene.NumberOf(aa, "y")-scene.NumberOf(ab, "y")-100) > 0.01 {
		t.Fatalf("arrow start did not follow: %v → %v", ab, aa)
	}
	endBefore := lastPoint(globalPoints(ab))
	if d := lastPoint(globalPoints(aa)); math.Abs(d[0]-endBefore[0]) > 0.01 || math.Abs(d[1]-endBefore[1]) > 0.01 {
		t.Fatalf("arrow end moved: %v → %v", endBefore, d)
	}
}

func lastPoint(pts []point) point { return pts[len(pts)-1] }

func TestTextRemeasure(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	_, err := s.apply(
		`{"op":"update","id":"a","patch":{"text":"A much longer label that has to wrap inside the box"}}`,
		`{"op":"add","element":{"type":"text","id":"t","x":0,"y":500,"text":"hi"}}`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.apply(`{"op":"update","id":"t","patch":{"text":"hello there","fontSize":40}}`)
	if err != nil {
		t.Fatal(err)
	}
	doc := s.doc()
	l := element(t, doc, labelID(t, doc, "a"))
	if scene.StringOf(l, "originalText") != "A much longer label that has to wrap inside the box" || !bytes.Contains([]byte(scene.StringOf(l, "text")), []byte("\n")) {
		t.Fatalf("label not wrapped: %v", l)
	}
	if a := element(t, doc, "a"); scene.NumberOf(l, "height") > scene.NumberOf(a, "height") {
		t.Fatalf("container did not grow: %v", a)
	}
	if tx := element(t, doc, "t"); scene.StringOf(tx, "originalText") != "hello there" || scene.NumberOf(tx, "height") < 40 {
		t.Fatalf("text not re-measured: %v", tx)
	}
}
