package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Row 1: a leftover temp file is ignored by listings and reads, is never a
// scene, and is cleaned up the first time its scene is locked (by a write, or
// a read that repairs; a plain read takes no lock and leaves it).
func TestRecoveryLeftoverTempFileIgnored(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	s.Close()

	leftover := filepath.Join(s.dir, ".a.excalidraw.tmp-0123456789abcdef")
	writeFile(t, leftover, []byte("half a docu"))
	other := filepath.Join(s.dir, "b.excalidraw.tmp-0123456789abcdef") // not a dotfile, still not a scene
	writeFile(t, other, doc(1, "b"))
	sideTemp := filepath.Join(s.dir, metaDir, ".a.meta.json.tmp-0123456789abcdef")
	writeFile(t, sideTemp, []byte("{"))

	s2, err := Open(Options{Dir: s.dir, Codec: jsonCodec{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	list, err := s2.List(bg)
	if err != nil || len(list) != 1 || list[0].Name != "a" || !list[0].Valid {
		t.Fatalf("list %+v %v", list, err)
	}
	sc, err := s2.Read(bg, "a")
	if err != nil || !bytes.Equal(sc.Data, doc(1, "one")) || sc.Revision != 1 {
		t.Fatalf("read %+v %v", sc, err)
	}
	mustSave(t, s2, "a", 1, doc(1, "two"))
	for _, p := range []string{leftover, sideTemp} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s not swept: %v", p, err)
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatalf("unrelated file removed: %v", err)
	}
}

// Row 2: a corrupt scene file with a valid backup is restored from the
// newest valid backup as a new revision by "recovery".
func TestRecoveryCorruptSceneRestoredFromNewestBackup(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(2, "two"))
	mustSave(t, s, "a", 2, doc(3, "three"))                   // backups: 1 ("one"), 2 ("two")
	writeFile(t, backupPathOf(s, "a", 2), []byte("not json")) // the newest backup is bad too
	writeFile(t, scenePathOf(s, "a"), []byte(`{"elements":[{"id":`))

	sc, err := s.Read(bg, "a")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sc.Data, doc(1, "one")) || sc.Revision != 4 || sc.UpdatedBy != ActorRecovery || sc.PreviousRevision != 3 {
		t.Fatalf("restored %+v %s", sc.Meta, sc.Data)
	}
	if got := readFile(t, scenePathOf(s, "a")); !bytes.Equal(got, doc(1, "one")) {
		t.Fatal("file not restored")
	}
	// The corrupt bytes are kept, under a name recovery never picks.
	corrupt := filepath.Join(s.dir, metaDir, backupsDir, backupFile("a", 3, false))
	if got := readFile(t, corrupt); string(got) != `{"elements":[{"id":` {
		t.Fatalf("corrupt copy %q", got)
	}
	if side := readSidecarFile(t, s, "a"); side.Revision != 4 || side.UpdatedBy != ActorRecovery {
		t.Fatalf("sidecar %+v", side)
	}
}

// Row 3: corrupt, no valid backup → corrupt_scene; only a forced save may
// overwrite it, and the corrupt bytes are kept.
func TestRecoveryCorruptSceneWithoutBackup(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	writeFile(t, scenePathOf(s, "a"), []byte("garbage"))

	e := wantCode(t, err2(s.Read(bg, "a")), CodeCorruptScene)
	if e.Details["revision"] != int64(1) {
		t.Fatalf("details %v", e.Details)
	}
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "x"), Actor: ActorAgent})
	wantCode(t, err, CodeCorruptScene)
	_, err = s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
		Mutate: func(*Scene) ([]byte, error) { t.Fatal("mutate called on corrupt scene"); return nil, nil }})
	wantCode(t, err, CodeCorruptScene)

	res, err := s.Save(bg, SaveRequest{Name: "a", Force: true, Data: doc(1, "fixed"), Actor: ActorUI})
	if err != nil || res.Revision != 2 {
		t.Fatalf("forced save %+v %v", res, err)
	}
	if got := readFile(t, filepath.Join(s.dir, metaDir, backupsDir, backupFile("a", 1, false))); string(got) != "garbage" {
		t.Fatalf("corrupt copy %q", got)
	}
}

// Row 4a: a valid scene file without a sidecar (dropped in) lists as
// revision 0 and gets a sidecar at revision 1 by "recovery" when first read.
func TestRecoverySidecarMissing(t *testing.T) {
	s := testStore(t)
	writeFile(t, scenePathOf(s, "dropped"), doc(2, "x"))

	list, err := s.List(bg)
	if err != nil || len(list) != 1 || list[0].Revision != 0 || !list[0].Valid || list[0].ElementCount != 2 ||
		!strings.Contains(list[0].Problem, "no sidecar") {
		t.Fatalf("list %+v %v", list, err)
	}
	sc, err := s.Read(bg, "dropped")
	if err != nil || sc.Revision != 1 || sc.UpdatedBy != ActorRecovery || sc.ElementCount != 2 {
		t.Fatalf("read %+v %v", sc, err)
	}
	if side := readSidecarFile(t, s, "dropped"); side.Revision != 1 || side.SHA256 != sha256Hex(doc(2, "x")) {
		t.Fatalf("sidecar %+v", side)
	}
	// Revision 1 is now what a save must expect.
	mustSave(t, s, "dropped", 1, doc(1, "y"))
}

// Row 4b: a stale sidecar (file edited outside the store, or a save
// interrupted between rename and sidecar) → the file wins, the revision
// advances from the sidecar's, attributed to "recovery".
func TestRecoverySidecarStale(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	second := mustSave(t, s, "a", 1, doc(1, "two"))
	writeFile(t, scenePathOf(s, "a"), doc(4, "edited by hand"))

	list, _ := s.List(bg)
	if list[0].Revision != 2 || !strings.Contains(list[0].Problem, "stale") {
		t.Fatalf("list %+v", list[0])
	}
	sc, err := s.Read(bg, "a")
	if err != nil {
		t.Fatal(err)
	}
	if sc.Revision != 3 || sc.UpdatedBy != ActorRecovery || sc.PreviousRevision != 2 ||
		sc.PreviousSHA256 != second.SHA256 || sc.ElementCount != 4 || !bytes.Equal(sc.Data, doc(4, "edited by hand")) {
		t.Fatalf("reconciled %+v", sc.Meta)
	}
	// A writer that still expects revision 2 would overwrite the hand edit.
	_, err = s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(1, "x"), Actor: ActorAgent})
	wantCode(t, err, CodeRevisionConflict)
}

// Row 4c: with the sidecar gone but backups present, the revision continues
// past the newest backup rather than restarting at 1.
func TestRecoverySidecarMissingContinuesAfterBackups(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(1, "two"))
	mustSave(t, s, "a", 2, doc(1, "three")) // revision 3; backups 1 and 2
	os.Remove(sidecarPathOf(s, "a"))
	sc, err := s.Read(bg, "a")
	if err != nil || sc.Revision != 4 || sc.UpdatedBy != ActorRecovery {
		t.Fatalf("%+v %v", sc, err)
	}
}

// Row 6: a corrupt sidecar is treated as absent; the scene file is
// authoritative.
func TestRecoverySidecarCorrupt(t *testing.T) {
	for name, content := range map[string]string{
		"garbage":      "{{{",
		"wrong schema": `{"schema":"other@9","name":"a","revision":5,"sha256":"` + strings.Repeat("0", 64) + `"}`,
		"wrong name":   strings.Replace(string(validSidecarJSON("a")), `"name": "a"`, `"name": "b"`, 1),
		"empty":        "",
	} {
		t.Run(name, func(t *testing.T) {
			s := testStore(t)
			mustCreate(t, s, "a", 2, "one")
			writeFile(t, sidecarPathOf(s, "a"), []byte(content))
			list, _ := s.List(bg)
			if !list[0].Valid || !strings.Contains(list[0].Problem, "sidecar") {
				t.Fatalf("list %+v", list[0])
			}
			sc, err := s.Read(bg, "a")
			if err != nil || sc.Revision != 1 || sc.UpdatedBy != ActorRecovery || !bytes.Equal(sc.Data, doc(2, "one")) {
				t.Fatalf("%+v %v", sc, err)
			}
			if side := readSidecarFile(t, s, "a"); side.SHA256 != sha256Hex(doc(2, "one")) {
				t.Fatalf("sidecar %+v", side)
			}
		})
	}
}

// A save on a scene with a stale sidecar reconciles first, then fences
// against the reconciled revision.
func TestSaveReconcilesBeforeFence(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	writeFile(t, scenePathOf(s, "a"), doc(1, "hand"))
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "x"), Actor: ActorAgent})
	e := wantCode(t, err, CodeRevisionConflict)
	if e.Details["currentRevision"] != int64(2) || e.Details["updatedBy"] != "recovery" {
		t.Fatalf("%v", e.Details)
	}
	mustSave(t, s, "a", 2, doc(1, "x"))
	if got := readFile(t, backupPathOf(s, "a", 2)); !bytes.Equal(got, doc(1, "hand")) {
		t.Fatal("hand edit not backed up")
	}
}

func validSidecarJSON(name string) []byte {
	sc := &sidecar{Schema: SidecarSchema, Name: name, Revision: 1, SHA256: strings.Repeat("a", 64),
		UpdatedAt: "2026-10-28T03:20:11.000Z", UpdatedBy: ActorAgent}
	return sc.encode()
}
