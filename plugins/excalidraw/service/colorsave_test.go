package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// TestPersonsOddColourSaved: a colour the agents' tools refuse is kept in
// a document a person saves from the editor (it is theirs to draw), and
// an agent's later patch of another field of that element passes.
func TestPersonsOddColourSaved(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "ui", Actor: "ui"}); err != nil {
		t.Fatal(err)
	}
	raw := `{"type":"excalidraw","version":2,"elements":[{"type":"rectangle","id":"r","x":1,"y":2,"width":3,"height":4,"strokeColor":"#12345","backgroundColor":"rgb(1,2,3)"}],"appState":{"viewBackgroundColor":"ivory "}}`
	if _, err := s.Save(ctx, SaveRequest{Name: "ui", Scene: []byte(raw), ExpectedRevision: 1}); err != nil {
		t.Fatalf("a person's save with an odd colour refused: %v", err)
	}
	if _, err := s.Apply(ctx, ApplyRequest{Name: "ui", ExpectedRevision: 2, Operations: raws(`{"op":"update","id":"r","patch":{"x":10}}`)}); err != nil {
		t.Fatalf("a patch beside a person's odd colour refused: %v", err)
	}
}
