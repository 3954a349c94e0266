package lint

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// nearMissScene is two columns of two boxes, each column's boxes 2 px
// off on their left edges: a near miss in each column.
func nearMissScene() []*ojson.Object {
	return list(rectangle("a", 0, 0, 100, 50), rectangle("b", 2, 100, 100, 50),
		rectangle("c", 500, 0, 100, 50), rectangle("d", 502, 100, 100, 50))
}

// With Options.Touched, the near-miss hints are those of pairs with a
// touched element; an empty Touched (a scene nobody touched) has none.
func TestNearMissOnlyForTouched(t *testing.T) {
	els := nearMissScene()
	expect(t, Run(els, Options{}), CodeAlignmentNearMiss, "a", "b")
	expect(t, Run(els, Options{}), CodeAlignmentNearMiss, "c", "d")

	fs := Run(els, Options{Touched: map[string]bool{"b": true}})
	expect(t, fs, CodeAlignmentNearMiss, "a", "b")
	if n := len(find(fs, CodeAlignmentNearMiss)); n != 1 {
		t.Fatalf("touched b: want only a–b's hint, got:\n%s", dump(fs))
	}
	none(t, Run(els, Options{Touched: map[string]bool{}}), CodeAlignmentNearMiss)
	// Other rules do not depend on it: a labelled box over c is found.
	e := rectangle("e", 510, 10, 100, 50)
	over := append(nearMissScene(), e, label(e, "el", "E"))
	expect(t, Run(over, Options{Touched: map[string]bool{}}), CodeOverlap, "c", "e")
}

// A write's lint (Delta, scoped or all) does not list, new or
// persisting, a near miss between two elements it left alone, even when
// they are beside what it changed.
func TestDeltaNearMissOnlyForTheChanged(t *testing.T) {
	before := append(nearMissScene(), rectangle("x", 120, 0, 60, 50))
	after := append(nearMissScene(), rectangle("x", 120, 2, 60, 50)) // x moved 2 px down: off a's top edge
	for _, all := range []bool{false, true} {
		added, _, persisting := Delta(before, after, []string{"x"}, DeltaOptions{All: all})
		expect(t, added, CodeAlignmentNearMiss, "a", "x")
		for _, f := range append(added, persisting...) {
			if f.Code == CodeAlignmentNearMiss && !(len(f.IDs) == 2 && (f.IDs[0] == "x" || f.IDs[1] == "x")) {
				t.Errorf("all %v: a near miss the write did not touch: %s", all, dump([]Finding{f}))
			}
		}
	}
}

// An arrow end left unbound beside a shape is a near miss too: with
// Options.Touched, only for a touched arrow or a touched shape.
func TestUnboundArrowEndOnlyForTouched(t *testing.T) {
	els := list(rectangle("box", 200, 0, 100, 60), arrow("a", 0, 30, [][2]float64{{0, 0}, {190, 0}}), rectangle("far", 0, 400, 100, 60))
	expect(t, Run(els, Options{}), CodeUnboundArrowEnd, "a", "box")
	expect(t, Run(els, Options{Touched: map[string]bool{"a": true}}), CodeUnboundArrowEnd, "a", "box")
	expect(t, Run(els, Options{Touched: map[string]bool{"box": true}}), CodeUnboundArrowEnd, "a", "box")
	none(t, Run(els, Options{Touched: map[string]bool{"far": true}}), CodeUnboundArrowEnd)
	none(t, Run(els, Options{Touched: map[string]bool{}}), CodeUnboundArrowEnd)
}
