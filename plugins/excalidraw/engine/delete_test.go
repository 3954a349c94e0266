package engine

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Deleting an arrow takes it out of its targets' boundElements.
func TestDeleteArrowUnlistsIt(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	res, err := s.apply(`{"op":"delete","id":"ab"}`)
	if err != nil {
		t.Fatal(err)
	}
	doc := s.doc()
	if hasBound(element(t, doc, "a"), "ab") || hasBound(element(t, doc, "b"), "ab") {
		t.Fatal("deleted arrow still listed")
	}
	if !scene.IsDeleted(element(t, doc, "ab")) || res.Deleted != 1 {
		t.Fatal("arrow not tombstoned")
	}
	_, err = s.apply(`{"op":"delete","id":"ab"}`)
	if err == nil {
		t.Fatal("deleting a tombstone succeeded")
	}
}

// Deleting a label alone leaves the container without it.
func TestDeleteLabel(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	doc := s.doc()
	lid := labelID(t, doc, "a")
	if _, err := s.apply(`{"op":"delete","id":"` + lid + `"}`); err != nil {
		t.Fatal(err)
	}
	doc = s.doc()
	if hasBound(element(t, doc, "a"), lid) || scene.IsDeleted(element(t, doc, "a")) {
		t.Fatal("container still lists its deleted label, or was deleted")
	}
}
