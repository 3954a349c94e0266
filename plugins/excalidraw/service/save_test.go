package service

import (
	"bytes"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestSaveForceAndConflict(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	data := fileBytes(t, dir, "flow")
	if _, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(`{"op":"delete","id":"b"}`)}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Save(ctx, SaveRequest{Name: "flow", Scene: data, ExpectedRevision: 1})
	wantCode(t, err, sceneerr.RevisionConflict)
	res, err := s.Save(ctx, SaveRequest{Name: "flow", Scene: data, ExpectedRevision: 1, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := s.Read(ctx, ReadRequest{Name: "flow"})
	if res.Revision != 3 || r.UpdatedBy != "ui" || !bytes.Equal(r.Scene, data) {
		t.Fatalf("forced save %+v read %+v", res, r.UpdatedBy)
	}
	checkStored(t, dir, "flow")
}

func TestSaveNormalizesAndRejects(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "ui", Actor: "ui"}); err != nil {
		t.Fatal(err)
	}
	// A minimal editor-ish document: Normalize fills the defaults.
	raw := `{"type":"excalidraw","version":2,"elements":[{"type":"rectangle","id":"r","x":1,"y":2,"width":3,"height":4}],"appState":{"zoom":{"value":2}}}`
	if _, err := s.Save(ctx, SaveRequest{Name: "ui", Scene: []byte(raw), ExpectedRevision: 1}); err != nil {
		t.Fatal(err)
	}
	checkStored(t, dir, "ui")
	_, err := s.Save(ctx, SaveRequest{Name: "ui", Scene: []byte(`{"type":"excalidraw","version":2,"elements":[{"type":"unicorn","id":"u"}]}`), ExpectedRevision: 2})
	if se := wantCode(t, err, sceneerr.UnsupportedElement); se.Details["diagnostics"] == nil {
		t.Fatal(se.Details)
	}
	_, err = s.Save(ctx, SaveRequest{Name: "ui", Scene: []byte(`{"type":"excalidraw"`), ExpectedRevision: 2})
	wantCode(t, err, sceneerr.InvalidScene)
	_, err = s.Save(ctx, SaveRequest{Name: "nope", Scene: []byte(raw)})
	wantCode(t, err, sceneerr.NotFound)
}
