package store

import (
	"bytes"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// ctimeModes runs a test with this filesystem's own ctimes, and again as
// if they were coarse (a change right after another may keep its ctime),
// where Head may trust a record only once the file was read a while
// after its ctime.
func ctimeModes(t *testing.T, test func(t *testing.T, coarse func(*Store))) {
	t.Run("probed", func(t *testing.T) { test(t, func(*Store) {}) })
	t.Run("coarse", func(t *testing.T) {
		test(t, func(s *Store) { s.ctimeProbe.Do(func() { s.fineCtime = false }) })
	})
}

// wantHead checks that Head answers exactly what Read's record is.
func wantHead(t *testing.T, s *Store, name string) Meta {
	t.Helper()
	sc, err := s.Read(bg, name)
	if err != nil {
		t.Fatal(err)
	}
	h, err := s.Head(bg, name)
	if err != nil {
		t.Fatal(err)
	}
	if h != sc.Meta {
		t.Fatalf("Head = %+v, Read = %+v", h, sc.Meta)
	}
	return h
}

func TestHeadIsReadsRecord(t *testing.T) {
	ctimeModes(t, func(t *testing.T, coarse func(*Store)) {
		s := testStore(t)
		coarse(s)
		mustCreate(t, s, "a", 2, "one")
		for rev := int64(1); rev < 4; rev++ {
			if h, err := s.Head(bg, "a"); err != nil || h.Revision != rev {
				t.Fatalf("Head after revision %d: %+v %v", rev, h, err)
			}
			if wantHead(t, s, "a").Revision != rev {
				t.Fatal("wrong revision")
			}
			mustSave(t, s, "a", rev, doc(3, string(rune('a'+rev))))
		}
		_, err := s.Head(bg, "missing")
		wantCode(t, err, CodeNotFound)
		_, err = s.Head(bg, "Bad")
		wantCode(t, err, CodeInvalidName)
	})
}

// The known record never outlives the files it describes: another
// Store's commit, a hand edit in place right after a commit (same length,
// same inode), a lost sidecar, a hand edit by rename: Head sees each at
// once, and answers what Read answers (repairing as Read does).
func TestHeadSeesEveryChangeOfItsFiles(t *testing.T) {
	ctimeModes(t, func(t *testing.T, coarse func(*Store)) {
		s := testStore(t)
		coarse(s)
		mustCreate(t, s, "a", 2, "one")
		wantHead(t, s, "a") // known

		other, err := Open(Options{Dir: s.dir, Codec: jsonCodec{}})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		if _, err := other.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(2, "two"), Actor: ActorAgent}); err != nil {
			t.Fatal(err)
		}
		if h, err := s.Head(bg, "a"); err != nil || h.Revision != 2 || h.UpdatedBy != ActorAgent {
			t.Fatalf("after another store's commit: %+v %v", h, err)
		}

		// In place, at once after this store's own commit, same length.
		mustSave(t, s, "a", 2, doc(2, "thr"))
		f, err := os.OpenFile(scenePathOf(s, "a"), os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt(doc(2, "hnd"), 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
		h := wantHead(t, s, "a")
		if h.Revision != 4 || h.UpdatedBy != ActorRecovery || h.SHA256 != sha256Hex(doc(2, "hnd")) {
			t.Fatalf("after an edit in place: %+v", h)
		}

		// The sidecar edited in place at once after a commit, same
		// length: its record is no longer the one this store keeps.
		mustSave(t, s, "a", 4, doc(2, "fiv"))
		side := readFile(t, sidecarPathOf(s, "a"))
		edited := bytes.Replace(side, []byte(`"updatedBy": "agent"`), []byte(`"updatedBy": "ui"   `), 1)
		if bytes.Equal(edited, side) {
			t.Fatalf("no updatedBy in %s", side)
		}
		g, err := os.OpenFile(sidecarPathOf(s, "a"), os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.WriteAt(edited, 0); err != nil {
			t.Fatal(err)
		}
		g.Close()
		if h, err := s.Head(bg, "a"); err != nil || h.Revision != 5 || h.UpdatedBy != ActorUI {
			t.Fatalf("after the sidecar was edited in place: %+v %v", h, err)
		}
		wantHead(t, s, "a")
		// A write expecting the revision the edit kept is not refused
		// from what this store knew, and one expecting another is.
		if _, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 4, Data: doc(1, "x"), Actor: ActorAgent}); err == nil {
			t.Fatal("a stale save went through")
		}

		if err := os.Remove(sidecarPathOf(s, "a")); err != nil {
			t.Fatal(err)
		}
		// Rebuilt one past the newest backup, as Read would.
		if h, err := s.Head(bg, "a"); err != nil || h.Revision != 6 || h.UpdatedBy != ActorRecovery || h.PreviousRevision != 0 {
			t.Fatalf("after the sidecar was lost: %+v %v", h, err)
		}
		wantHead(t, s, "a")

		tmp := filepath.Join(s.dir, "edited")
		writeFile(t, tmp, doc(4, "renamed in"))
		if err := os.Rename(tmp, scenePathOf(s, "a")); err != nil {
			t.Fatal(err)
		}
		if h := wantHead(t, s, "a"); h.Revision != 7 || h.ElementCount != 4 {
			t.Fatalf("after an edit by rename: %+v", h)
		}
	})
}

// Between a commit's two renames, Head answers the last committed
// revision from the sidecar without reading the scene file, as Read does
// (from the backup, after backing off) while the writer holds the lock.
func TestHeadDuringCommitAnswersTheLastCommitted(t *testing.T) {
	s, ffs := faultStore(t) // "a" at revision 2
	before := wantHead(t, s, "a")
	var heads, reads atomic.Int32
	var during Meta
	var inHead atomic.Bool
	ffs.set(func(op, p string) error {
		switch {
		case op == "read" && p == scenePathOf(s, "a") && inHead.Load():
			reads.Add(1)
		case op == "rename" && p == sidecarPathOf(s, "a") && heads.Add(1) == 1:
			inHead.Store(true)
			h, err := s.Head(bg, "a")
			inHead.Store(false)
			if err != nil {
				t.Error(err)
			}
			during = h
			sc, err := s.Read(bg, "a")
			if err != nil || sc.Meta != h {
				t.Errorf("Read during the commit: %+v %v; Head %+v", sc, err, h)
			}
		}
		return nil
	})
	res := mustSave(t, s, "a", 2, doc(3, "three"))
	if during != before || reads.Load() != 0 {
		t.Fatalf("Head during the commit: %+v (read the scene %d times), want %+v", during, reads.Load(), before)
	}
	if h := wantHead(t, s, "a"); h != res.Meta {
		t.Fatalf("Head after the commit: %+v, want %+v", h, res.Meta)
	}
}

// Where ctimes are coarse, a record is trusted only when the file was
// read a while after its ctime (two clock ticks, two seconds for
// whole-second ctimes).
func TestHeadTrustsCoarseCtimesOnlyWhenSettled(t *testing.T) {
	s := testStore(t)
	s.ctimeProbe.Do(func() { s.fineCtime = false })
	now := time.Now()
	at := func(d time.Duration) fileStamp { return fileStamp{ctime: now.Add(-d).UnixNano() | 1} }
	if s.settled(at(coarseTick/2), now) {
		t.Error("trusted a file changed within the tick")
	}
	if !s.settled(at(3*coarseTick), now) {
		t.Error("did not trust a file changed three ticks before it was read")
	}
	whole := now.Truncate(time.Second)
	if s.settled(fileStamp{ctime: whole.UnixNano()}, whole.Add(1500*time.Millisecond)) {
		t.Error("trusted a whole-second ctime 1.5 s on")
	}
	if !s.settled(fileStamp{ctime: whole.UnixNano()}, whole.Add(2500*time.Millisecond)) {
		t.Error("did not trust a whole-second ctime 2.5 s on")
	}
}

// The probe leaves nothing behind in the directory it probes.
func TestFineCtimeProbeLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	t.Logf("fine ctimes: %v", probeFineCtimes(d))
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("probe left %v", entries)
	}
}

// The metadata directory replaced by another (moved away, a copy with an
// edited sidecar put in its place): the kept handle of the old one is not
// used, so Head reads the new sidecar.
func TestHeadFollowsAReplacedMetadataDirectory(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 2, "one")
	mustSave(t, s, "a", 1, doc(2, "two"))
	wantHead(t, s, "a")
	meta := filepath.Join(s.dir, metaDir)
	if err := os.Rename(meta, meta+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(meta, os.DirFS(meta+".old")); err != nil {
		t.Fatal(err)
	}
	side := readFile(t, sidecarPathOf(s, "a"))
	edited := bytes.Replace(side, []byte(`"updatedBy": "agent"`), []byte(`"updatedBy": "ui"   `), 1)
	writeFile(t, sidecarPathOf(s, "a"), edited)
	if h, err := s.Head(bg, "a"); err != nil || h.Revision != 2 || h.UpdatedBy != ActorUI {
		t.Fatalf("after the metadata directory was replaced: %+v %v", h, err)
	}
}
