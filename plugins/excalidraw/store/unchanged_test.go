package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// diskState is what an unchanged write must leave exactly as it was: the
// scene and sidecar bytes and mtimes, and the backups directory listing.
type diskState struct {
	snapshot
	sceneMtime, sideMtime time.Time
	backups               []string
}

func takeDiskState(t testing.TB, s *Store, name string) diskState {
	t.Helper()
	st := diskState{snapshot: takeSnapshot(t, s, name)}
	for path, at := range map[string]*time.Time{scenePathOf(s, name): &st.sceneMtime, sidecarPathOf(s, name): &st.sideMtime} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		*at = info.ModTime()
	}
	entries, err := os.ReadDir(filepath.Join(s.dir, metaDir, backupsDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		st.backups = append(st.backups, e.Name())
	}
	return st
}

func (st diskState) check(t testing.TB, s *Store, name string) {
	t.Helper()
	st.snapshot.check(t, s, name)
	now := takeDiskState(t, s, name)
	if !now.sceneMtime.Equal(st.sceneMtime) || !now.sideMtime.Equal(st.sideMtime) {
		t.Fatalf("mtimes changed: scene %v→%v, sidecar %v→%v", st.sceneMtime, now.sceneMtime, st.sideMtime, now.sideMtime)
	}
	if !slices.Equal(now.backups, st.backups) {
		t.Fatalf("backups %v, were %v", now.backups, st.backups)
	}
}

// ageFiles sets the scene's and sidecar's mtimes an hour back, so a
// rewrite within the filesystem's timestamp granularity still shows.
func ageFiles(t testing.TB, s *Store, name string) {
	t.Helper()
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	for _, p := range []string{scenePathOf(s, name), sidecarPathOf(s, name)} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWriteOfCurrentBytesWritesNothing: Save (plain, forced, on a stale
// base, with a request id) and Update whose bytes equal the current file
// answer the current evidence with Unchanged, verified, and touch nothing:
// no revision, no backup, no sidecar change, no new mtime. The request id
// of an unchanged write is not remembered.
func TestWriteOfCurrentBytesWritesNothing(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	head := mustSave(t, s, "a", 1, doc(2, "two"))
	ageFiles(t, s, "a")
	before := takeDiskState(t, s, "a")

	for _, r := range []SaveRequest{
		{Name: "a", ExpectedRevision: 2, Data: doc(2, "two"), Actor: ActorUI},
		{Name: "a", ExpectedRevision: 1, Data: doc(2, "two"), Actor: ActorUI}, // stale base: nothing can be lost
		{Name: "a", Force: true, Data: doc(2, "two"), Actor: ActorUI},
		{Name: "a", ExpectedRevision: 2, Data: doc(2, "two"), Actor: ActorUI, RequestID: "ui-7"},
		{Name: "a", ExpectedRevision: 2, Data: doc(2, "two"), Actor: ActorUI, RequestID: "ui-7"},
	} {
		what := fmt.Sprintf("save expected %d force %v request %q", r.ExpectedRevision, r.Force, r.RequestID)
		res, err := s.Save(bg, r)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !res.Unchanged || res.Duplicate || !res.Verified || res.Meta != head.Meta || !res.SavedAt.Equal(head.SavedAt) {
			t.Fatalf("%s: got %+v, want the evidence of %+v", what, res, head)
		}
	}
	res, err := s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 2, Actor: ActorAgent,
		Mutate: func(cur *Scene) ([]byte, error) { return cur.Data, nil }})
	if err != nil || !res.Unchanged || res.Meta != head.Meta {
		t.Fatalf("unchanged update: %+v %v", res, err)
	}
	before.check(t, s, "a")

	// Different bytes on a stale base are still a conflict, and different
	// bytes on the current one are the next revision, not Unchanged.
	_, err = s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(2, "three"), Actor: ActorUI})
	wantCode(t, err, CodeRevisionConflict)
	if res := mustSave(t, s, "a", 2, doc(2, "three")); res.Unchanged || res.Revision != 3 {
		t.Fatalf("changed save: %+v", res)
	}
}
