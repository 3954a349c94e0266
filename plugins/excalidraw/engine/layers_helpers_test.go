package engine

import (
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
)

// This file holds what the tests of Group, Reorder, the frame edits,
// Arrange and Repair share.

// checkIndices fails unless every element has a valid fractional index
// and the indices increase in array order.
func checkIndices(t testing.TB, doc *scene.Document) {
	t.Helper()
	var keys []string
	for _, el := range doc.Elements() {
		keys = append(keys, scene.StringOf(el, "index"))
	}
	if bad := findex.CheckOrder(keys); len(bad) > 0 {
		t.Fatalf("indices out of order at %v: %v", bad, keys)
	}
}

// versions maps ids to versions.
func versions(doc *scene.Document) map[string]float64 {
	out := map[string]float64{}
	for _, el := range doc.Elements() {
		out[scene.StringOf(el, "id")] = scene.NumberOf(el, "version")
	}
	return out
}

// bumpedOnce fails unless exactly the elements of want went one version
// up from before to after, and every other element kept its version
// (elements new in after are not counted).
func bumpedOnce(t testing.TB, before, after *scene.Document, want ...string) {
	t.Helper()
	was := versions(before)
	var got []string
	for id, v := range versions(after) {
		if _, existed := was[id]; !existed {
			continue
		}
		switch d := v - was[id]; {
		case d == 1:
			got = append(got, id)
		case d != 0:
			t.Errorf("%s went from version %g to %g", id, was[id], v)
		}
	}
	slices.Sort(got)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Errorf("bumped %v, want %v", got, want)
	}
}

// groupsOf lists an element's groupIds.
func groupsOf(t testing.TB, doc *scene.Document, id string) []string {
	t.Helper()
	return stringsOf(element(t, doc, id), "groupIds")
}

// boxOfID is an element's box as query computes it.
func boxOfID(t testing.TB, doc *scene.Document, id string) Box {
	t.Helper()
	b, ok := query.ElementBounds(element(t, doc, id))
	if !ok {
		t.Fatalf("%s has no box", id)
	}
	return b
}

// frame makes a frame in a Txn of its own and returns its id.
func (s *stored) frame(name string, box *Box, children ...string) string {
	s.t.Helper()
	var id string
	s.mustEdit(func(tx *Txn) (err error) { id, err = tx.CreateFrame(name, box, children, 0, ""); return err })
	return id
}
