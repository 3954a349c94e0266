package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

func TestValidateNeverTouchesStore(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	rep := s.Validate([]byte(`{"type":"excalidraw","version":2,"elements":[{"type":"rectangle","id":"r"},{"type":"rectangle","id":"r"}]}`))
	if rep.Valid || len(rep.Diagnostics) == 0 {
		t.Fatalf("broken scene validated: %+v", rep)
	}
	if rep := s.Validate([]byte(`{`)); rep.Valid || len(rep.Diagnostics) != 1 {
		t.Fatalf("bad JSON: %+v", rep)
	}
	rows, _ := s.List(ctx)
	if len(rows) != 0 {
		t.Fatalf("validate wrote something in %s: %v", dir, rows)
	}
}
