package store

import (
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// queued is how many callers hold or wait for name's slot.
func queued(q *nameQueue, name string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if slot := q.slots[name]; slot != nil {
		return slot.refs
	}
	return 0
}

func waitQueued(t *testing.T, q *nameQueue, name string, n int) {
	t.Helper()
	deadline := time.Now().Add(testDeadline)
	for queued(q, name) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d in %s's queue, want %d", queued(q, name), name, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// A write whose expected revision is stale is refused from the sidecar
// without waiting for the scene's lock, even while another process's
// writer holds it for longer than the lock timeout; a write that is not
// stale does wait for it.
func TestStaleWriteIsRefusedWithoutTheLock(t *testing.T) {
	const timeout = 300 * time.Millisecond
	s := testStore(t, func(o *Options) { o.LockTimeout = timeout })
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(2, "two"))
	other, err := Open(Options{Dir: s.dir, Codec: jsonCodec{}})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	held, err := other.begin(bg, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer held.end()

	start := time.Now()
	_, err = s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
		Mutate: func(*Scene) ([]byte, error) { t.Error("a stale update ran"); return nil, nil }})
	e := wantCode(t, err, CodeRevisionConflict)
	if e.Details["currentRevision"] != int64(2) {
		t.Fatalf("conflict details %v", e.Details)
	}
	_, err = s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(3, "x"), Actor: ActorAgent})
	wantCode(t, err, CodeRevisionConflict)
	if d := time.Since(start); d >= timeout {
		t.Fatalf("stale writes took %v: they waited for the lock", d)
	}
	_, err = s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 2, Data: doc(3, "x"), Actor: ActorAgent})
	wantCode(t, err, CodeSceneBusy)
}

// queueBehind starts a commit of "a" (at revision 1) that stops in its
// Mutate until the returned go is called, and then, once it has made
// its revision visible, in the fsync of the metadata directory until
// finish is called: a commit ahead that holds the scene's turn. (Without
// a journal, so that the commit has that fsync: a journaled one need not
// wait for its sidecar's rename to be durable.)
func queueBehind(t *testing.T) (s *Store, start func(), finish func() *Result) {
	ffs := newFaultFS()
	s = testStore(t, func(o *Options) { o.FS = ffs; o.Journal.Disabled = true })
	mustCreate(t, s, "a", 1, "one")
	var armed atomic.Bool
	synced, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	ffs.set(func(op, p string) error {
		if op == "sync" && p == filepath.Join(s.dir, metaDir) && armed.Load() {
			once.Do(func() { close(synced); <-release })
		}
		return nil
	})
	entered, proceed := make(chan struct{}), make(chan struct{})
	done := make(chan *Result, 1)
	go func() {
		res, err := s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
			Mutate: func(*Scene) ([]byte, error) { close(entered); <-proceed; return doc(2, "ahead"), nil }})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	<-entered
	start = func() {
		armed.Store(true)
		close(proceed)
		<-synced
	}
	finish = func() *Result {
		close(release)
		return <-done
	}
	return s, start, finish
}

// A writer waiting for its turn behind a commit that makes its expected
// revision stale is refused as soon as that commit's revision is visible,
// while the commit still holds the scene.
func TestQueuedStaleWriteLeavesWhenTheCommitAheadLands(t *testing.T) {
	s, start, finish := queueBehind(t)
	errc := make(chan error, 1)
	go func() {
		_, err := s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
			Mutate: func(*Scene) ([]byte, error) { t.Error("a stale update ran"); return nil, nil }})
		errc <- err
	}()
	waitQueued(t, s.queue, "a", 2)
	start()
	select {
	case err := <-errc:
		e := wantCode(t, err, CodeRevisionConflict)
		if e.Details["currentRevision"] != int64(2) {
			t.Fatalf("conflict details %v", e.Details)
		}
	case <-time.After(testDeadline):
		t.Fatal("the stale writer still waits behind the commit that made it stale")
	}
	if res := finish(); res == nil || res.Revision != 2 {
		t.Fatalf("the commit ahead: %+v", res)
	}
	if n := queued(s.queue, "a"); n != 0 {
		t.Fatalf("%d left in the queue", n)
	}
}

// A waiter the commit ahead does not make stale stays in line: a save of
// the very bytes that commit wrote passes the fence, and is unchanged.
func TestQueuedSaveOfTheSameBytesStays(t *testing.T) {
	s, start, finish := queueBehind(t)
	type result struct {
		res *Result
		err error
	}
	rc := make(chan result, 1)
	go func() {
		res, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(2, "ahead"), Actor: ActorAgent})
		rc <- result{res, err}
	}()
	waitQueued(t, s.queue, "a", 2)
	start()
	select {
	case r := <-rc:
		t.Fatalf("the save left the queue before its turn: %+v %v", r.res, r.err)
	case <-time.After(50 * time.Millisecond):
	}
	finish()
	r := <-rc
	if r.err != nil || !r.res.Unchanged || r.res.Revision != 2 {
		t.Fatalf("%+v %v", r.res, r.err)
	}
}

// The queue's recheck: a waiter is asked at each revision made while it
// waits, and leaves (its reference dropped) when it refuses.
func TestQueueRecheckRefusalLeaves(t *testing.T) {
	q := newNameQueue()
	release, err := q.acquire(bg, "a", nil)
	if err != nil {
		t.Fatal(err)
	}
	errStale := errors.New("stale")
	var asked []int64
	errc := make(chan error, 1)
	go func() {
		_, err := q.acquire(bg, "a", func(sc *sidecar) error {
			asked = append(asked, sc.Revision)
			if sc.Revision == 3 {
				return errStale
			}
			return nil
		})
		errc <- err
	}()
	waitQueued(t, q, "a", 2)
	q.moved("a", &sidecar{Revision: 2})
	select {
	case err := <-errc:
		t.Fatalf("left on a revision it accepted: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	q.moved("a", &sidecar{Revision: 3})
	if err := <-errc; !errors.Is(err, errStale) || len(asked) != 2 {
		t.Fatalf("%v, asked at %v", err, asked)
	}
	if queued(q, "a") != 1 {
		t.Fatalf("%d in the queue, want the holder alone", queued(q, "a"))
	}
	release()
	if q.size() != 0 {
		t.Fatalf("queue holds %d names", q.size())
	}
}
