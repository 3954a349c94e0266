package store

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// faultStore is a store on a faultFS with scene "a" at revision 2 (so there
// is a sidecar with history and a backup to compare against).
func faultStore(t *testing.T) (*Store, *faultFS) {
	t.Helper()
	ffs := newFaultFS()
	s := testStore(t, func(o *Options) { o.FS = ffs })
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(2, "two"))
	return s, ffs
}

// expectRolledBack runs a save that must fail with io_error at stage and
// leave scene and sidecar byte-identical, then checks the store still works.
func expectRolledBack(t *testing.T, s *Store, ffs *faultFS, stage string) *Error {
	t.Helper()
	before := takeSnapshot(t, s, "a")
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(3, "three"), Actor: ActorAgent, RequestID: "r3"})
	e := wantCode(t, err, CodeIOError)
	if e.Details["stage"] != stage {
		t.Fatalf("stage %v, want %s (%v)", e.Details["stage"], stage, err)
	}
	if !errors.Is(err, errInjected) {
		t.Fatalf("cause lost: %v", err)
	}
	ffs.set(nil)
	ffs.setRead(nil)
	before.check(t, s, "a")
	noTemps(t, s)
	// The failed request id was not remembered, and revision 2 is still current.
	res, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(3, "three"), Actor: ActorAgent, RequestID: "r3"})
	if err != nil || res.Duplicate || res.Revision != 3 {
		t.Fatalf("retry: %+v %v", res, err)
	}
	return e
}

// Step 3: the backup cannot be linked (a filesystem without hard links)
// and its copy cannot be written → nothing else happens.
func TestSaveFailsWhenBackupWriteFails(t *testing.T) {
	s, ffs := faultStore(t)
	copyFails := failOnce("write", func(p string) bool { return strings.Contains(p, backupsDir) })
	ffs.set(func(op, p string) error {
		if op == "link" {
			return errInjected
		}
		return copyFails(op, p)
	})
	before := takeSnapshot(t, s, "a")
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(3, "three"), Actor: ActorAgent})
	e := wantCode(t, err, CodeIOError)
	if e.Details["stage"] != "backup" {
		t.Fatalf("details %v", e.Details)
	}
	before.check(t, s, "a")
	noTemps(t, s)
}

// Step 4: write, fsync and rename of the new bytes. The target is never
// touched before the rename, so the previous bytes are simply still there.
func TestSaveFailsWhenSceneWriteFails(t *testing.T) {
	s, ffs := faultStore(t)
	ffs.set(failOnce("write", isSceneTemp("a")))
	expectRolledBack(t, s, ffs, "write")
}

func TestSaveFailsWhenSceneFsyncFails(t *testing.T) {
	s, ffs := faultStore(t)
	ffs.set(failOnce("sync", isSceneTemp("a")))
	expectRolledBack(t, s, ffs, "fsync")
}

func TestSaveFailsWhenSceneRenameFails(t *testing.T) {
	s, ffs := faultStore(t)
	ffs.set(failOnce("rename", func(p string) bool { return filepath.Base(p) == "a.excalidraw" }))
	expectRolledBack(t, s, ffs, "rename")
}

// Step 4's directory fsync is best effort: a failure is logged, the save stands.
func TestSaveSurvivesDirectoryFsyncFailure(t *testing.T) {
	s, ffs := faultStore(t)
	var failed atomic.Int32
	ffs.set(func(op, p string) error {
		if op == "sync" && p == s.dir {
			failed.Add(1)
			return errInjected
		}
		return nil
	})
	res, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(3, "three"), Actor: ActorAgent})
	if err != nil || res.Revision != 3 || failed.Load() == 0 {
		t.Fatalf("%+v %v (dir fsync failures: %d)", res, err, failed.Load())
	}
}

// Step 5: the sidecar's temp file cannot be written → the scene file is
// never replaced, and the error says the scene is as it was.
func TestSaveFailsWhenSidecarWriteFails(t *testing.T) {
	s, ffs := faultStore(t)
	ffs.set(failOnce("write", isSidecarTemp("a")))
	e := expectRolledBack(t, s, ffs, "sidecar")
	if e.Details["rolledBack"] != true {
		t.Fatalf("details %v: the scene was never touched", e.Details)
	}
}

func TestSaveRollsBackWhenSidecarRenameFails(t *testing.T) {
	s, ffs := faultStore(t)
	ffs.set(failOnce("rename", func(p string) bool { return filepath.Base(p) == sidecarFile("a") }))
	expectRolledBack(t, s, ffs, "sidecar")
}

// Step 6: the read-back fails or disagrees → both files are rolled back (7).
func TestSaveRollsBackWhenReadBackFails(t *testing.T) {
	s, ffs := faultStore(t)
	armReadBack(s, ffs, func(string) error { return errInjected }, nil)
	expectRolledBack(t, s, ffs, "verify")
}

func TestSaveRollsBackWhenReadBackHashDiffers(t *testing.T) {
	s, ffs := faultStore(t)
	armReadBack(s, ffs, nil, func(data []byte) []byte {
		bad := bytes.Clone(data)
		bad[len(bad)-3] ^= 0x01 // same length, different content
		return bad
	})
	before := takeSnapshot(t, s, "a")
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(3, "three"), Actor: ActorAgent})
	e := wantCode(t, err, CodeIOError)
	if e.Details["stage"] != "verify" || e.Details["rolledBack"] != true || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("%v %v", err, e.Details)
	}
	ffs.setRead(nil)
	before.check(t, s, "a")
}

func TestSaveRollsBackWhenReadBackDoesNotParse(t *testing.T) {
	s, ffs := faultStore(t)
	armReadBack(s, ffs, nil, func(data []byte) []byte { return []byte("{") })
	before := takeSnapshot(t, s, "a")
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(3, "three"), Actor: ActorAgent})
	wantCode(t, err, CodeIOError)
	ffs.setRead(nil)
	before.check(t, s, "a")
}

// The element count is compared too: a codec that answers differently on
// the read-back fails the save.
func TestSaveRollsBackWhenElementCountDiffers(t *testing.T) {
	codec := &flakyCodec{}
	s := testStore(t, func(o *Options) { o.Codec = codec })
	mustCreate(t, s, "a", 1, "one")
	before := takeSnapshot(t, s, "a")
	codec.skewNext.Store(2) // the pre-check is honest, the read-back is off by one
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(3, "three"), Actor: ActorAgent})
	e := wantCode(t, err, CodeIOError)
	if !strings.Contains(e.Error(), "element count") {
		t.Fatal(err)
	}
	before.check(t, s, "a")
}

// A failed Create removes the file it created and leaves no sidecar.
func TestCreateRollsBackOnVerifyFailure(t *testing.T) {
	ffs := newFaultFS()
	s := testStore(t, func(o *Options) { o.FS = ffs })
	armReadBack(s, ffs, func(string) error { return errInjected }, nil)
	_, err := s.Create(bg, CreateRequest{Name: "a", Data: doc(1, "x"), Actor: ActorAgent})
	wantCode(t, err, CodeIOError)
	if _, err := readFileErr(scenePathOf(s, "a")); err == nil {
		t.Fatal("scene left behind")
	}
	if _, err := readFileErr(sidecarPathOf(s, "a")); err == nil {
		t.Fatal("sidecar left behind")
	}
}

// A rollback that itself fails is reported (rolledBack=false), and the next
// read reconciles the mismatch instead of trusting either file.
func TestFailedRollbackIsReconciledOnNextRead(t *testing.T) {
	s, ffs := faultStore(t)
	var renamed atomic.Bool
	ffs.set(func(op, p string) error {
		if op == "rename" && filepath.Base(p) == "a.excalidraw" && renamed.Swap(true) {
			return errInjected // the second rename: the rollback's
		}
		return nil
	})
	armReadBack(s, ffs, func(string) error { return errInjected }, nil)
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(3, "three"), Actor: ActorAgent})
	e := wantCode(t, err, CodeIOError)
	if e.Details["rolledBack"] != false {
		t.Fatalf("details %v", e.Details)
	}
	ffs.set(nil)
	ffs.setRead(nil)
	sc, err := s.Read(bg, "a")
	if err != nil {
		t.Fatal(err)
	}
	if sc.UpdatedBy != ActorRecovery || sc.Revision != 3 {
		t.Fatalf("after failed rollback: %+v", sc.Meta)
	}
}

// armReadBack makes the first ReadFile of scene "a" after its rename fail
// (fail) or return altered bytes (mangle): that is the step-6 read-back.
func armReadBack(s *Store, ffs *faultFS, fail func(string) error, mangle func([]byte) []byte) {
	var armed, fired atomic.Bool
	target := filepath.Join(s.dir, "a.excalidraw")
	ffs.set(chain(ffs.hook, func(op, p string) error {
		if op == "rename" && p == target {
			armed.Store(true)
		}
		if op == "read" && p == target && armed.Load() && fail != nil && !fired.Swap(true) {
			return fail(p)
		}
		return nil
	}))
	if mangle != nil {
		ffs.setRead(func(p string, data []byte) []byte {
			if p == target && armed.Load() && !fired.Swap(true) {
				return mangle(data)
			}
			return data
		})
	}
}

func chain(hooks ...func(op, p string) error) func(op, p string) error {
	return func(op, p string) error {
		for _, h := range hooks {
			if h == nil {
				continue
			}
			if err := h(op, p); err != nil {
				return err
			}
		}
		return nil
	}
}

// flakyCodec is jsonCodec, except that the skewNext-th call from now
// reports one element more.
type flakyCodec struct{ skewNext atomic.Int32 }

func (c *flakyCodec) Inspect(data []byte) (int, error) {
	n, err := jsonCodec{}.Inspect(data)
	if c.skewNext.Load() > 0 && c.skewNext.Add(-1) == 0 {
		n++
	}
	return n, err
}

// Step 1: while the new bytes are being renamed into place, the name's
// in-process slot is taken and the lock file exists with its flock held.
func TestSaveRunsUnderBothLocks(t *testing.T) {
	ffs := newFaultFS()
	s := testStore(t, func(o *Options) { o.FS = ffs })
	mustCreate(t, s, "a", 1, "one")
	target := scenePathOf(s, "a")
	var checked atomic.Bool
	ffs.set(func(op, p string) error {
		if op != "rename" || p != target || checked.Swap(true) {
			return nil
		}
		if s.queue.size() != 1 {
			t.Errorf("queue size %d during save", s.queue.size())
		}
		f, err := os.Open(lockPathOf(s, "a"))
		if err != nil {
			t.Errorf("no lock file during save: %v", err)
			return nil
		}
		defer f.Close()
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); !errors.Is(err, unix.EWOULDBLOCK) {
			t.Errorf("lock file's flock not held during save: %v", err)
		}
		return nil
	})
	mustSave(t, s, "a", 1, doc(1, "two"))
	if !checked.Load() {
		t.Fatal("hook never ran")
	}
}

// Step 4: the target is replaced by rename (a new inode), never rewritten
// in place, so a reader holding the old file keeps seeing whole old bytes.
func TestSaveReplacesTargetByRename(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	old, err := os.Open(scenePathOf(s, "a"))
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	before, _ := old.Stat()
	mustSave(t, s, "a", 1, doc(3, "two"))
	after, _ := os.Stat(scenePathOf(s, "a"))
	if os.SameFile(before, after) {
		t.Fatal("target rewritten in place")
	}
	got, _ := io.ReadAll(old)
	if !bytes.Equal(got, doc(1, "one")) {
		t.Fatal("old handle saw new bytes")
	}
}
