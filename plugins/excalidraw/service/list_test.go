package service

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// An unreadable file is a valid:false row; the listing does not fail.
func TestList(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	w := createFlow(t, s, "flow")
	if err := os.WriteFile(filepath.Join(dir, "broken.excalidraw"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	rows, err := s.List(ctx)
	if err != nil || len(rows) != 2 || rows[0].Name != "broken" || rows[0].Valid {
		t.Fatalf("broken file row %+v %v", rows, err)
	}
	rows = rows[1:]
	if len(rows) != 1 || rows[0].Name != "flow" || rows[0].SHA256 != w.SHA256 || !rows[0].Valid || rows[0].UpdatedAt != "2026-10-27T21:20:00.000Z" {
		t.Fatalf("list %+v", rows)
	}
}
