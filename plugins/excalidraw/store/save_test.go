package store

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

func TestSaveCommitsNextRevision(t *testing.T) {
	now := time.Date(2026, 10, 28, 3, 20, 11, 123456789, time.UTC)
	s := testStore(t, func(o *Options) { o.Now = func() time.Time { return now } })
	first := mustCreate(t, s, "a", 1, "one")
	res, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(2, "two"), Actor: ActorUI, RequestID: "ui-1"})
	if err != nil {
		t.Fatal(err)
	}
	want := Meta{Name: "a", Revision: 2, SHA256: sha256Hex(doc(2, "two")), ByteLength: int64(len(doc(2, "two"))),
		ElementCount: 2, UpdatedAt: now.Truncate(time.Millisecond), UpdatedBy: ActorUI,
		PreviousRevision: 1, PreviousSHA256: first.SHA256}
	if res.Meta != want || !res.Verified || res.Duplicate || !res.SavedAt.Equal(want.UpdatedAt) {
		t.Fatalf("got %+v\nwant %+v", res, want)
	}
	sc := readSidecarFile(t, s, "a")
	if sc.UpdatedAt != "2026-10-28T03:20:11.123Z" || sc.meta() != want {
		t.Fatalf("sidecar %+v", sc)
	}
}

// Save step 2: the fence.
func TestSaveStaleRevisionIsConflict(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	second := mustSave(t, s, "a", 1, doc(1, "two"))
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "three"), Actor: ActorAgent})
	e := wantCode(t, err, CodeRevisionConflict)
	if e.Details["currentRevision"] != int64(2) || e.Details["currentSha256"] != second.SHA256 ||
		e.Details["expectedRevision"] != int64(1) || e.Details["updatedAt"] != formatTime(second.UpdatedAt) {
		t.Fatalf("details %v", e.Details)
	}
	if got := readFile(t, scenePathOf(s, "a")); !bytes.Equal(got, doc(1, "two")) {
		t.Fatal("conflicting save changed the file")
	}
}

// Force is the browser's explicit overwrite: no fence.
func TestSaveForceSkipsFence(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(1, "two"))
	res, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Force: true, Data: doc(1, "mine"), Actor: ActorUI})
	if err != nil || res.Revision != 3 {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestSaveMissingSceneIsNotFound(t *testing.T) {
	s := testStore(t)
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "x"), Actor: ActorAgent})
	wantCode(t, err, CodeNotFound)
}

// Save step 3: the previous bytes are copied to backups/ under their revision.
func TestSaveBacksUpPreviousBytes(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(1, "two"))
	mustSave(t, s, "a", 2, doc(1, "three"))
	if got := readFile(t, backupPathOf(s, "a", 1)); !bytes.Equal(got, doc(1, "one")) {
		t.Fatalf("backup 1 = %s", got)
	}
	if got := readFile(t, backupPathOf(s, "a", 2)); !bytes.Equal(got, doc(1, "two")) {
		t.Fatalf("backup 2 = %s", got)
	}
	noTemps(t, s)
}

func TestSavePrunesOldBackups(t *testing.T) {
	s := testStore(t, func(o *Options) { o.KeepBackups = 2 })
	mustCreate(t, s, "a", 1, "r1")
	for rev := int64(1); rev < 5; rev++ {
		mustSave(t, s, "a", rev, doc(1, fmt.Sprintf("r%d", rev+1))) // each a change: the same bytes would write nothing
	}
	// Revisions 1..4 were backed up; only the newest two remain.
	for rev, want := range map[int64]bool{1: false, 2: false, 3: true, 4: true} {
		_, err := readFileErr(backupPathOf(s, "a", rev))
		if (err == nil) != want {
			t.Fatalf("backup %d present=%v", rev, err == nil)
		}
	}
}

// A save that takes longer than nothing at all still reports the whole
// evidence; the sidecar and the result agree (step 5).
func TestSaveSidecarMatchesResult(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	res := mustSave(t, s, "a", 1, doc(5, "two"))
	if sc := readSidecarFile(t, s, "a"); sc.meta() != res.Meta {
		t.Fatalf("sidecar %+v result %+v", sc.meta(), res.Meta)
	}
}
