package engine

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// elbow makes a the kind of arrow its elbowed now says:
//
//   - an elbow arrow bound at both ends is routed around every shape as
//     a new one is (build.Reroute); one bound at one end or neither keeps
//     its ends and runs between them in three axis-aligned segments
//     (along the wider axis, across, along), sharp-cornered as the
//     editor's elbow arrows are;
//   - an arrow that stops being an elbow arrow keeps its points and
//     bindings and loses what only elbow arrows have (fixedSegments,
//     startIsSpecial, endIsSpecial).
func (tx *Txn) elbow(a *ojson.Object) error {
	if e, _ := a.Bool("elbowed"); !e {
		for _, k := range []string{"fixedSegments", "startIsSpecial", "endIsSpecial"} {
			a.Delete(k)
		}
		return nil
	}
	a.Set("roundness", nil)
	ids, err := build.Reroute(tx.doc.Elements(), []*ojson.Object{a})
	if err != nil {
		return opError("", "%v", err)
	}
	if len(ids) == 1 {
		return nil
	}
	pts := globalPoints(a)
	if len(pts) < 2 {
		return nil
	}
	s, e := pts[0], pts[len(pts)-1]
	var route []point
	if math.Abs(e[0]-s[0]) >= math.Abs(e[1]-s[1]) {
		mx := (s[0] + e[0]) / 2
		route = []point{s, {mx, s[1]}, {mx, e[1]}, e}
	} else {
		my := (s[1] + e[1]) / 2
		route = []point{s, {s[0], my}, {e[0], my}, e}
	}
	setGlobalPoints(a, dedupe(route))
	a.Set("fixedSegments", nil).Set("startIsSpecial", nil).Set("endIsSpecial", nil)
	return nil
}

// dedupe drops points equal to the one before.
func dedupe(pts []point) []point {
	out := pts[:1]
	for _, q := range pts[1:] {
		if q != out[len(out)-1] {
			out = append(out, q)
		}
	}
	return out
}
