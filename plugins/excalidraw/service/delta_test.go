package service

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// deltaIDs decodes a delta's elements: their ids in order, and each by id.
func deltaIDs(t *testing.T, d *Delta) ([]string, map[string]map[string]any) {
	t.Helper()
	var ids []string
	byID := map[string]map[string]any{}
	for _, raw := range d.Elements {
		var el map[string]any
		if err := json.Unmarshal(raw, &el); err != nil {
			t.Fatal(err)
		}
		id := el["id"].(string)
		ids = append(ids, id)
		byID[id] = el
	}
	return ids, byID
}

func apply(t *testing.T, s *Service, name string, rev int64, ops ...string) *WriteResult {
	t.Helper()
	res, err := s.Apply(ctx, ApplyRequest{Name: name, ExpectedRevision: rev, Operations: raws(ops...)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestDeltaHasExactlyTheChangedElements: a commit's delta holds the
// elements it changed, whole and as stored, deletions as tombstones, and
// nothing else; a delta over several commits holds the union, each
// element as the head has it.
func TestDeltaHasExactlyTheChangedElements(t *testing.T) {
	s, _ := newTestService(t, scene.DefaultLimits())
	if _, err := s.Create(ctx, CreateRequest{Name: "d", Elements: raws(
		`{"type":"rectangle","id":"r","x":0,"y":0,"width":10,"height":10}`,
		`{"type":"rectangle","id":"s","x":50,"y":0,"width":10,"height":10}`,
		`{"type":"rectangle","id":"u","x":100,"y":0,"width":10,"height":10}`,
	)}); err != nil {
		t.Fatal(err)
	}
	moved := apply(t, s, "d", 1, `{"op":"update","id":"r","patch":{"x":30}}`)
	d, err := s.Delta(ctx, "d", 1)
	if err != nil {
		t.Fatal(err)
	}
	ids, els := deltaIDs(t, d)
	if d.Resync || d.From != 1 || d.Revision != 2 || d.SHA256 != moved.SHA256 || !slices.Equal(ids, []string{"r"}) {
		t.Fatalf("delta %+v ids %v", d, ids)
	}
	if els["r"]["x"] != 30.0 || els["r"]["version"].(float64) < 2 {
		t.Fatalf("r is %v", els["r"])
	}
	if d.Files != nil || d.AppState != nil || d.Forced != nil {
		t.Fatalf("members nobody changed: %+v", d)
	}

	apply(t, s, "d", 2, `{"op":"delete","id":"s"}`)
	d, err = s.Delta(ctx, "d", 2)
	if err != nil {
		t.Fatal(err)
	}
	ids, els = deltaIDs(t, d)
	if d.Resync || !slices.Equal(ids, []string{"s"}) || els["s"]["isDeleted"] != true {
		t.Fatalf("delete: ids %v, s %v", ids, els["s"])
	}

	// From revision 1: both commits, r as moved, s as deleted, u not at all.
	d, err = s.Delta(ctx, "d", 1)
	if err != nil {
		t.Fatal(err)
	}
	ids, els = deltaIDs(t, d)
	if d.Resync || d.Revision != 3 || !slices.Equal(ids, []string{"r", "s"}) || els["r"]["x"] != 30.0 || els["s"]["isDeleted"] != true {
		t.Fatalf("union: %+v ids %v", d, ids)
	}

	// At the head: nothing.
	if d, err = s.Delta(ctx, "d", 3); err != nil || d.Resync || len(d.Elements) != 0 {
		t.Fatalf("at the head: %+v %v", d, err)
	}
	// No base, or a base the scene has not reached: resync.
	for _, from := range []int64{0, 9} {
		if d, err = s.Delta(ctx, "d", from); err != nil || !d.Resync || d.Revision != 3 {
			t.Fatalf("from %d: %+v %v", from, d, err)
		}
	}
}

// TestDeltaAppStateFilesAndForced: the stored appState comes with a
// commit that changed it, an image's file with the commit that added it,
// and a forced save is named.
func TestDeltaAppStateFilesAndForced(t *testing.T) {
	s, _ := newTestService(t, scene.DefaultLimits())
	if _, err := s.Create(ctx, CreateRequest{Name: "d", Elements: raws(`{"type":"rectangle","id":"r","x":0,"y":0,"width":10,"height":10}`)}); err != nil {
		t.Fatal(err)
	}
	read, err := s.Read(ctx, ReadRequest{Name: "d"})
	if err != nil {
		t.Fatal(err)
	}
	// An agent moves r; a person's tab still on revision 1 overwrites it.
	apply(t, s, "d", 1, `{"op":"update","id":"r","patch":{"x":30}}`)
	var doc map[string]any
	if err := json.Unmarshal(read.Scene, &doc); err != nil {
		t.Fatal(err)
	}
	els := doc["elements"].([]any)
	img := map[string]any{"type": "image", "id": "img", "x": 0, "y": 50, "width": 1, "height": 1, "fileId": "f1", "status": "saved",
		"version": 1, "versionNonce": 7, "seed": 1, "index": "a5"}
	doc["elements"] = append(els, img)
	doc["files"] = map[string]any{"f1": map[string]any{"id": "f1", "mimeType": "image/png", "created": 1,
		"dataURL": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="}}
	doc["appState"] = map[string]any{"viewBackgroundColor": "#fff3bf"}
	data, _ := json.Marshal(doc)
	if _, err := s.Save(ctx, SaveRequest{Name: "d", Scene: data, ExpectedRevision: 1, Force: true}); err != nil {
		t.Fatal(err)
	}
	d, err := s.Delta(ctx, "d", 2)
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := deltaIDs(t, d)
	if d.Resync || !slices.Equal(ids, []string{"r", "img"}) {
		t.Fatalf("delta %+v ids %v", d, ids)
	}
	if _, ok := d.Files["f1"]; !ok || len(d.Files) != 1 {
		t.Fatalf("files %v", d.Files)
	}
	var app map[string]any
	if err := json.Unmarshal(d.AppState, &app); err != nil || app["viewBackgroundColor"] != "#fff3bf" {
		t.Fatalf("appState %s: %v", d.AppState, err)
	}
	if len(d.Forced) != 1 || d.Forced[0].Revision != 3 || !d.Forced[0].Forced {
		t.Fatalf("forced %+v", d.Forced)
	}
	// Moving the image later sends the element, not its file again.
	apply(t, s, "d", 3, `{"op":"update","id":"img","patch":{"x":20}}`)
	if d, err = s.Delta(ctx, "d", 3); err != nil || d.Resync || len(d.Elements) != 1 || d.Files != nil || d.AppState != nil {
		t.Fatalf("move: %+v %v", d, err)
	}
}

// TestDeltaResyncs: when the journal no longer reaches back to the
// revision asked, when too many elements changed, or when a save dropped
// an element from the file, there is no delta.
func TestDeltaResyncs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	s, err := New(Config{DrawingsDir: dir, Journal: store.JournalOptions{MaxEntries: 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Create(ctx, CreateRequest{Name: "d", Elements: raws(`{"type":"rectangle","id":"r","x":0,"y":0,"width":10,"height":10}`)}); err != nil {
		t.Fatal(err)
	}
	for rev := int64(1); rev <= 6; rev++ {
		apply(t, s, "d", rev, fmt.Sprintf(`{"op":"update","id":"r","patch":{"x":%d}}`, rev*10))
	}
	if d, err := s.Delta(ctx, "d", 1); err != nil || !d.Resync || d.Why != "journal" || d.Revision != 7 || d.Elements != nil {
		t.Fatalf("behind the journal: %+v %v", d, err)
	}
	if d, err := s.Delta(ctx, "d", 6); err != nil || d.Resync {
		t.Fatalf("within the journal: %+v %v", d, err)
	}

	// Over MaxDeltaElements changed.
	many := make([]string, MaxDeltaElements+1)
	for i := range many {
		many[i] = fmt.Sprintf(`{"type":"rectangle","id":"m%d","x":%d,"y":100,"width":10,"height":10}`, i, i*20)
	}
	for i, half := range [][]string{many[:250], many[250:]} {
		if _, err := s.Apply(ctx, ApplyRequest{Name: "d", ExpectedRevision: int64(7 + i), Operations: addOps(half)}); err != nil {
			t.Fatal(err)
		}
	}
	if d, err := s.Delta(ctx, "d", 7); err != nil || !d.Resync || d.Why != "large" {
		t.Fatalf("large: %+v %v", d, err)
	}

	// A save that leaves r out of the file (no tombstone).
	read, err := s.Read(ctx, ReadRequest{Name: "d"})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(read.Scene, &doc); err != nil {
		t.Fatal(err)
	}
	doc["elements"] = slices.DeleteFunc(doc["elements"].([]any), func(e any) bool { return e.(map[string]any)["id"] == "r" })
	data, _ := json.Marshal(doc)
	if _, err := s.Save(ctx, SaveRequest{Name: "d", Scene: data, ExpectedRevision: 9}); err != nil {
		t.Fatal(err)
	}
	if d, err := s.Delta(ctx, "d", 9); err != nil || !d.Resync || d.Why != "removed" {
		t.Fatalf("removed: %+v %v", d, err)
	}
}

// addOps are add operations of element inputs.
func addOps(inputs []string) []json.RawMessage {
	out := make([]json.RawMessage, len(inputs))
	for i, in := range inputs {
		out[i] = json.RawMessage(`{"op":"add","element":` + in + `}`)
	}
	return out
}
