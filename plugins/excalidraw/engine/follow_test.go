package engine

import (
	"math"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Moving and resizing the end target of a labelled arrow re-attaches
// the arrow's end to the target's new outline and lays its label out on
// the arrow's middle again; the start stays.
func TestFollowArrowWithLabel(t *testing.T) {
	s := newStored(t)
	s.create(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":100}`,
		`{"type":"rectangle","id":"b","x":400,"y":0,"width":100,"height":100,"roundness":"sharp"}`,
		`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b","label":{"text":"go"}}`)
	before := globalPoints(element(t, s.doc(), "ab"))
	_, err := s.apply(`{"op":"update","id":"b","patch":{"y":200,"width":200}}`)
	if err != nil {
		t.Fatal(err)
	}
	after := s.doc()
	ab := element(t, after, "ab")
	pts := globalPoints(ab)
	if !samePoint(pts[0], before[0]) {
		t.Fatalf("start moved %v → %v", before[0], pts[0])
	}
	checkOnOutline(t, "end", pts[1], element(t, after, "b"))
	l := element(t, after, labelID(t, after, "ab"))
	mid := point{(pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2}
	if math.Abs(scene.NumberOf(l, "x")+scene.NumberOf(l, "width")/2-mid[0]) > 0.01 || math.Abs(scene.NumberOf(l, "y")+scene.NumberOf(l, "height")/2-mid[1]) > 0.01 {
		t.Fatalf("arrow label not centred: %v vs %v", l, mid)
	}
}

func TestMoveBothEndsMovesWholeArrow(t *testing.T) {
	s := newStored(t)
	s.create(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":300,"height":300}`,
		`{"type":"arrow","id":"aa","x":50,"y":50,"points":[[0,0],[100,0],[100,100]],"startElementId":"a","endElementId":"a"}`)
	before := element(t, s.doc(), "aa").Clone()
	if _, err := s.apply(`{"op":"update","id":"a","patch":{"x":10}}`); err != nil {
		t.Fatal(err)
	}
	after := element(t, s.doc(), "aa")
	if scene.NumberOf(after, "x")-scene.NumberOf(before, "x") != 10 {
		t.Fatalf("%v → %v", before, after)
	}
}

// An elbow arrow (only the editor makes them) keeps axis-aligned
// segments when a bound shape moves.
func TestFollowElbowArrow(t *testing.T) {
	s := newStored(t)
	doc := `{"type":"excalidraw","version":2,"elements":[
	 {"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":100,"boundElements":[{"id":"e","type":"arrow"}]},
	 {"type":"rectangle","id":"b","x":300,"y":200,"width":100,"height":100,"boundElements":[{"id":"e","type":"arrow"}]},
	 {"type":"arrow","id":"e","x":105,"y":50,"width":145,"height":145,"elbowed":true,
	  "points":[[0,0],[100,0],[100,200],[195,200]],
	  "startBinding":{"elementId":"a","focus":0,"gap":5,"fixedPoint":[1.05,0.5001]},
	  "endBinding":{"elementId":"b","focus":0,"gap":5,"fixedPoint":[-0.05,0.5001]}}]}`
	s.save([]byte(doc))
	if _, err := s.apply(`{"op":"update","id":"b","patch":{"y":260}}`); err != nil {
		t.Fatal(err)
	}
	pts := pointsOf(element(t, s.doc(), "e"))
	for k := 1; k < len(pts); k++ {
		if pts[k][0] != pts[k-1][0] && pts[k][1] != pts[k-1][1] {
			t.Fatalf("diagonal segment %d in %v", k, pts)
		}
	}
	if last := pts[len(pts)-1]; last[1] != 260 {
		t.Fatalf("end did not follow: %v", pts)
	}
}
