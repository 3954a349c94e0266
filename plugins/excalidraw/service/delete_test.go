package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Deleting an arrow takes it out of its targets' boundElements.
func TestDeleteArrowUnlistsIt(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	res, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(`{"op":"delete","id":"ab"}`)})
	if err != nil {
		t.Fatal(err)
	}
	doc := checkStored(t, dir, "flow")
	if hasBound(element(t, doc, "a"), "ab") || hasBound(element(t, doc, "b"), "ab") {
		t.Fatal("deleted arrow still listed")
	}
	if !deleted(element(t, doc, "ab")) || res.Operations.Deleted != 1 {
		t.Fatal("arrow not tombstoned")
	}
	_, err = s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 2, Operations: raws(`{"op":"delete","id":"ab"}`)})
	if err == nil {
		t.Fatal("deleting a tombstone succeeded")
	}
}

// Deleting a label alone leaves the container without it.
func TestDeleteLabel(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	doc := checkStored(t, dir, "flow")
	lid := labelID(t, doc, "a")
	if _, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(`{"op":"delete","id":"` + lid + `"}`)}); err != nil {
		t.Fatal(err)
	}
	doc = checkStored(t, dir, "flow")
	if hasBound(element(t, doc, "a"), lid) || deleted(element(t, doc, "a")) {
		t.Fatal("container still lists its deleted label, or was deleted")
	}
}
