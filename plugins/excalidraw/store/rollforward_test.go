package store

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// A journaled commit over a sidecar does not fsync the metadata directory
// (its journal entry is durable, so the next load can complete it); a
// create, which has no previous sidecar to roll forward from, does.
func TestCommitSkipsTheMetadataDirectoryFsyncOnlyWhenJournaled(t *testing.T) {
	for _, journaled := range []bool{true, false} {
		ffs := newFaultFS()
		s := testStore(t, func(o *Options) { o.FS = ffs; o.Journal.Disabled = !journaled })
		var mu sync.Mutex
		synced := map[string]int{}
		meta := filepath.Join(s.dir, metaDir)
		ffs.set(func(op, p string) error {
			if op == "sync" && p == meta {
				mu.Lock()
				synced[p]++
				mu.Unlock()
			}
			return nil
		})
		mustCreate(t, s, "a", 1, "one")
		mu.Lock()
		afterCreate := synced[meta]
		mu.Unlock()
		mustSave(t, s, "a", 1, doc(2, "two"))
		mustSave(t, s, "a", 2, doc(3, "three"))
		mu.Lock()
		afterSaves := synced[meta] - afterCreate
		mu.Unlock()
		if afterCreate == 0 {
			t.Fatalf("journaled=%v: a create did not fsync the metadata directory", journaled)
		}
		if journaled && afterSaves != 0 || !journaled && afterSaves < 2 {
			t.Fatalf("journaled=%v: two saves fsynced the metadata directory %d times", journaled, afterSaves)
		}
	}
}

// After a power loss the sidecar can be more than one revision behind
// the file (its renames not yet durable), the journal entries not: the
// next load rolls forward through all of them, keeping the writers and
// every request id, instead of recording the file as recovery's.
func TestRollForwardOverSeveralRevisions(t *testing.T) {
	s := testStore(t)
	createRev1(t, s, "a")
	rev1Sidecar := readFile(t, sidecarPathOf(s, "a"))
	if _, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: revDoc(2), Actor: ActorAgent, RequestID: "r2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: revDoc(3), Actor: ActorUI, RequestID: "r3"}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, sidecarPathOf(s, "a"), rev1Sidecar) // both renames lost
	s.Close()

	s2, err := Open(Options{Dir: s.dir, Codec: jsonCodec{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	sc, err := s2.Read(bg, "a")
	wantRevision(t, sc, err, 3)
	if sc.UpdatedBy != ActorUI || sc.PreviousRevision != 2 || sc.PreviousSHA256 != sha256Hex(revDoc(2)) {
		t.Fatalf("rolled forward as %+v", sc.Meta)
	}
	for _, id := range []string{"r2", "r3"} {
		res, err := s2.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: revDoc(9), Actor: ActorAgent, RequestID: id})
		if err != nil || !res.Duplicate {
			t.Fatalf("retry of %s: %+v %v", id, res, err)
		}
	}
	if got, head := walkLogPages(t, s2, "a", 10); head != 3 || !slices.Equal(revisionsOf(got), []int64{3, 2, 1}) {
		t.Fatalf("Log at %d lists %v", head, revisionsOf(got))
	}
}

// A sidecar behind a journal whose entries do not follow on from it (one
// is missing) is not rolled forward: the file is recorded by recovery.
func TestRollForwardNeedsAnUnbrokenChain(t *testing.T) {
	s := testStore(t)
	createRev1(t, s, "a")
	mustSave(t, s, "a", 1, revDoc(2))
	rev2Sidecar := readFile(t, sidecarPathOf(s, "a"))
	mustSave(t, s, "a", 2, revDoc(3))
	mustSave(t, s, "a", 3, revDoc(4))
	s.Close()
	// Cut entry 3 out of the journal.
	frames, _, _ := scanJournalFile(t, s.dir, "a")
	jpath := filepath.Join(s.dir, metaDir, journalDir, journalFile("a"))
	data := readFile(t, jpath)
	f3 := frames[2]
	data = append(slices.Clone(data[:f3.Offset]), data[f3.Offset+f3.Length:]...)
	if err := os.WriteFile(jpath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	writeFile(t, sidecarPathOf(s, "a"), rev2Sidecar)

	s2, err := Open(Options{Dir: s.dir, Codec: jsonCodec{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	sc, err := s2.Read(bg, "a")
	if err != nil || sc.Revision != 3 || sc.UpdatedBy != ActorRecovery || !bytes.Equal(sc.Data, revDoc(4)) {
		t.Fatalf("%+v %v", sc, err)
	}
}
