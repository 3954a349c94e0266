package service

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// backups lists the backups directory.
func backups(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, ".dsh-excalidraw", "backups"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestSaveOfSameBytesWritesNothing: a save whose normalized bytes are the
// stored ones (plain, forced, or on a stale base, since nothing can be
// lost) answers the current evidence with unchanged:true; no revision,
// backup or sidecar change, and OnCommit does not fire.
func TestSaveOfSameBytesWritesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	var commits []Head
	s, err := New(Config{DrawingsDir: dir, OnCommit: func(h Head) { commits = append(commits, h) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	createFlow(t, s, "flow")
	read, err := s.Read(ctx, ReadRequest{Name: "flow"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Save(ctx, SaveRequest{Name: "flow", Scene: read.Scene, ExpectedRevision: 1})
	if err != nil {
		t.Fatal(err)
	}
	if first.Revision != 1 || !first.Unchanged || !first.Verified || first.SHA256 != read.SHA256 ||
		first.ByteLength != read.ByteLength || first.ElementCount != 4 || first.Duplicate {
		t.Fatalf("identical save: %+v", first)
	}
	// A real change, so the next saves have a stale base to offer.
	if _, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(`{"op":"update","id":"b","patch":{"x":450}}`)}); err != nil {
		t.Fatal(err)
	}
	head, err := s.Read(ctx, ReadRequest{Name: "flow"})
	if err != nil {
		t.Fatal(err)
	}
	side := filepath.Join(dir, ".dsh-excalidraw", "flow.meta.json")
	sideBefore, _ := os.ReadFile(side)
	backupsBefore := backups(t, dir)
	nCommits := len(commits)
	for _, req := range []SaveRequest{
		{Name: "flow", Scene: head.Scene, ExpectedRevision: 2, RequestID: "same-1"},
		{Name: "flow", Scene: head.Scene, ExpectedRevision: 1, RequestID: "stale"},
		{Name: "flow", Scene: head.Scene, Force: true, RequestID: "forced"},
		{Name: "flow", Scene: head.Scene, ExpectedRevision: 2, RequestID: "same-1"},
	} {
		res, err := s.Save(ctx, req)
		if err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		if !res.Unchanged || res.Revision != 2 || res.SHA256 != head.SHA256 || !res.Verified || res.PreviousRevision != 1 {
			t.Fatalf("%+v: %+v", req, res)
		}
	}
	if got, _ := os.ReadFile(side); !bytes.Equal(got, sideBefore) {
		t.Fatalf("sidecar changed:\n%s\nwas\n%s", got, sideBefore)
	}
	if got := backups(t, dir); !slices.Equal(got, backupsBefore) {
		t.Fatalf("backups %v, were %v", got, backupsBefore)
	}
	if len(commits) != nCommits {
		t.Fatalf("OnCommit ran for an unchanged save: %+v", commits[nCommits:])
	}
	// A stale base with different bytes is still a conflict.
	_, err = s.Save(ctx, SaveRequest{Name: "flow", Scene: read.Scene, ExpectedRevision: 1})
	wantCode(t, err, sceneerr.RevisionConflict)
}

// TestApplyThatChangesNothingWritesNothing: updates setting fields to the
// values they have (a shape's position, a label's text) change no byte,
// so the apply is unchanged:true at the same revision and the element's
// version is not bumped.
func TestApplyThatChangesNothingWritesNothing(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	stored := fileBytes(t, dir, "flow")
	bVersion := scene.NumberOf(element(t, checkStored(t, dir, "flow"), "b"), "version")
	res, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(
		`{"op":"update","id":"b","patch":{"x":400,"y":0}}`,
		`{"op":"update","id":"a","patch":{"text":"Start","width":160}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Unchanged || res.Revision != 1 || res.Operations == nil || res.Operations.Updated != 2 {
		t.Fatalf("no-op apply: %+v", res)
	}
	if !bytes.Equal(fileBytes(t, dir, "flow"), stored) {
		t.Fatal("a no-op apply rewrote the file")
	}
	if got := backups(t, dir); len(got) != 0 {
		t.Fatalf("backups %v", got)
	}
	// One real change among no-ops bumps only the changed element.
	res, err = s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(
		`{"op":"update","id":"b","patch":{"x":400}}`, `{"op":"update","id":"a","patch":{"x":10}}`)})
	if err != nil || res.Unchanged || res.Revision != 2 {
		t.Fatalf("real change: %+v %v", res, err)
	}
	doc := checkStored(t, dir, "flow")
	if v := scene.NumberOf(element(t, doc, "b"), "version"); v != bVersion {
		t.Fatalf("b was not changed but its version is %v", v)
	}
}
