package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// blockingFsync is an fsync that reports when it starts and returns
// only when released, with the given error.
type blockingFsync struct {
	started chan struct{}
	release chan error
}

func newBlockingFsync() *blockingFsync {
	return &blockingFsync{started: make(chan struct{}), release: make(chan error)}
}

func (b *blockingFsync) fsync() error {
	close(b.started)
	return <-b.release
}

// waitGathering waits until n callers wait for key's next round.
func waitGathering(t *testing.T, d *dirSyncer, key fileKey, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for d.gathering(key) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d callers gathering, want %d", d.gathering(key), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// A caller that arrives while an fsync runs is not covered by it (it may
// have started before the caller's rename): it waits for the next one,
// which starts only after the running one ends, and gets that one's
// result.
func TestDirSyncAfterStartWaitsForTheNext(t *testing.T) {
	var d dirSyncer
	key := fileKey{1, 1}
	first := newBlockingFsync()
	var firstErr error
	var wg sync.WaitGroup
	wg.Go(func() { firstErr = d.sync(key, first.fsync) })
	<-first.started

	var calls atomic.Int32
	var released atomic.Bool
	second := errors.New("second round")
	var lateErr error
	late := make(chan struct{})
	wg.Go(func() {
		defer close(late)
		lateErr = d.sync(key, func() error {
			if !released.Load() {
				t.Error("the next round started while the first was running")
			}
			calls.Add(1)
			return second
		})
	})
	waitGathering(t, &d, key, 1)
	select {
	case <-late:
		t.Fatal("a caller that came after the fsync started returned before a later one")
	case <-time.After(20 * time.Millisecond):
	}
	released.Store(true)
	first.release <- nil
	wg.Wait()
	if firstErr != nil || !errors.Is(lateErr, second) || calls.Load() != 1 {
		t.Fatalf("first %v, late %v, its fsync ran %d times", firstErr, lateErr, calls.Load())
	}
	if d.size() != 0 {
		t.Fatalf("%d groups left", d.size())
	}
}

// Callers gathered behind a running fsync share one: it runs once, and
// when it fails every one of them gets its error (the round before is
// unaffected).
func TestDirSyncSharedFailureFailsEveryWaiter(t *testing.T) {
	var d dirSyncer
	key := fileKey{1, 2}
	first := newBlockingFsync()
	var wg sync.WaitGroup
	var firstErr error
	wg.Go(func() { firstErr = d.sync(key, first.fsync) })
	<-first.started

	const waiters = 8
	var calls atomic.Int32
	errs := make([]error, waiters)
	for i := range waiters {
		wg.Go(func() {
			errs[i] = d.sync(key, func() error {
				calls.Add(1)
				return fmt.Errorf("shared fsync: %w", errInjected)
			})
		})
	}
	waitGathering(t, &d, key, waiters)
	first.release <- nil
	wg.Wait()
	if firstErr != nil {
		t.Fatalf("the first round failed: %v", firstErr)
	}
	if calls.Load() != 1 {
		t.Fatalf("%d callers ran %d fsyncs, want one shared", waiters, calls.Load())
	}
	for i, err := range errs {
		if !errors.Is(err, errInjected) {
			t.Errorf("waiter %d: %v, want the shared fsync's error", i, err)
		}
	}
	if d.size() != 0 {
		t.Fatalf("%d groups left", d.size())
	}
}

// Directories are told apart by identity, not by handle: separately
// opened handles of one directory (every operation opens the metadata
// directories afresh) share a round, other directories do not wait.
func TestDirSyncGroupsHandlesOfOneDirectory(t *testing.T) {
	ffs := newFaultFS()
	s := testStore(t, func(o *Options) { o.FS = ffs })
	meta := filepath.Join(s.Dir(), metaDir)
	gate := newBlockingFsync()
	var once sync.Once
	var metaSyncs atomic.Int32
	ffs.set(func(op, p string) error {
		if op != "sync" || p != meta {
			return nil
		}
		metaSyncs.Add(1)
		var err error
		once.Do(func() { err = gate.fsync() })
		return err
	})
	open := func() *os.File {
		d, err := os.Open(meta)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	h := []*os.File{open(), open(), open()}
	info, err := h[0].Stat()
	if err != nil {
		t.Fatal(err)
	}
	dev, ino, _, _ := fileID(info)
	key := fileKey{dev, ino}

	var wg sync.WaitGroup
	errs := make([]error, len(h))
	wg.Go(func() { errs[0] = s.fsyncDir(h[0]) })
	<-gate.started
	for i := 1; i < len(h); i++ {
		wg.Go(func() { errs[i] = s.fsyncDir(h[i]) })
	}
	waitGathering(t, &s.syncs, key, len(h)-1)
	// Another directory is not held up by this one's running fsync.
	if err := s.fsyncDir(s.root); err != nil {
		t.Fatal(err)
	}
	gate.release <- nil
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("handle %d: %v", i, err)
		}
	}
	if n := metaSyncs.Load(); n != 2 {
		t.Fatalf("%d fsyncs of %s for %d handles, want 2 (the running one, then one shared)", n, meta, len(h))
	}
	if s.syncs.size() != 0 {
		t.Fatalf("%d groups left", s.syncs.size())
	}
}

// Concurrent saves of different scenes whose directory fsyncs fail all
// still succeed (the directory fsync is best effort, shared or not), and
// every one of them saw a failure: each logs it, however few fsyncs ran.
func TestConcurrentSavesShareFailingDirectoryFsync(t *testing.T) {
	ffs := newFaultFS()
	core, logs := observer.New(zap.WarnLevel)
	s := testStore(t, func(o *Options) { o.FS = ffs; o.Logger = zap.New(core) })
	const writers = 8
	for i := range writers {
		mustCreate(t, s, fmt.Sprintf("s%d", i), 2, "one")
	}
	var failed atomic.Int32
	ffs.set(func(op, p string) error {
		if op == "sync" && p == s.dir {
			failed.Add(1)
			return errInjected
		}
		return nil
	})
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			for rev := int64(1); rev <= 5; rev++ {
				res, err := s.Save(bg, SaveRequest{Name: fmt.Sprintf("s%d", i), ExpectedRevision: rev, Data: doc(3, fmt.Sprint(rev)), Actor: ActorAgent})
				if err != nil || res.Revision != rev+1 {
					t.Errorf("save %d of s%d: %+v %v", rev, i, res, err)
					return
				}
			}
		})
	}
	wg.Wait()
	seen := 0
	for _, e := range logs.FilterMessage("directory fsync failed (best effort)").All() {
		if e.ContextMap()["dir"] == s.dir {
			seen++
		}
	}
	if failed.Load() == 0 || failed.Load() > writers*5 || seen != writers*5 {
		t.Fatalf("%d failing fsyncs of the drawings directory for %d saves, %d saw one", failed.Load(), writers*5, seen)
	}
	t.Logf("%d saves shared %d failing fsyncs", writers*5, failed.Load())
	if s.syncs.size() != 0 {
		t.Fatalf("%d groups left", s.syncs.size())
	}
}
