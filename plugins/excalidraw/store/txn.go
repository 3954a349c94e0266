package store

import (
	"context"
	"errors"
	"os"

	"go.uber.org/zap"
)

// txn is one operation on one scene, holding both locks: the per-name queue
// in this process and the lock file across processes. Everything that writes
// a scene's files (commits, and the repairs of load) happens inside a txn,
// so read-modify-write is atomic and two repairs never race. Plain reads
// run outside any txn (see Read); they enter one only to repair, and only
// if its locks are free (tryBegin).
type txn struct {
	s       *Store
	name    string
	dirs    *metaDirs
	lock    *fileLock
	dequeue func()
	// journal is the scene's open journal once load (or Create) opened
	// it; nil when the journal is disabled.
	journal *journalHandle
	// side is the sidecar refuseEarly read under the txn's lock, for
	// load to use instead of reading it again.
	side *sidecarState
}

// begin starts a txn on a valid name.
//
//  1. Register with the store (refused after Close).
//  2. Wait for the name's turn in this process; if refuse is not nil, it
//     is called with the sidecar of each commit of the name in this
//     process that lands meanwhile, and its error ends the wait and is
//     returned (see beginExisting).
//  3. Open the metadata directories (refusing symlinks).
//  4. Take the cross-process lock file.
//  5. The first time this store touches the name, remove its leftover temp
//     files: holding the lock, no writer of this name can be mid-write.
func (s *Store) begin(ctx context.Context, name string) (*txn, error) {
	return s.beginRefusing(ctx, name, nil)
}

// beginRefusing is begin whose wait for the name's turn calls refuse (see
// step 2).
func (s *Store) beginRefusing(ctx context.Context, name string, refuse func(*sidecar) error) (*txn, error) {
	if err := ctx.Err(); err != nil {
		return nil, newError(CodeSceneBusy, "cancelled before start", err)
	}
	if err := s.enter(); err != nil {
		return nil, err
	}
	t := &txn{s: s, name: name}
	waiting := s.phaseStart()
	var err error
	if t.dequeue, err = s.queue.acquire(ctx, name, refuse); err != nil {
		t.end()
		if ctxErr := ctx.Err(); ctxErr == nil || !errors.Is(err, ctxErr) {
			return nil, err // refuse's
		}
		s.phaseEnd(PhaseLockGaveUp, waiting)
		return nil, newError(CodeSceneBusy, "gave up waiting for scene "+name, err)
	}
	if t.dirs, err = s.openMetaDirs(); err != nil {
		t.end()
		return nil, err
	}
	if t.lock, err = s.lockScene(ctx, t.dirs.locks, name); err != nil {
		t.end()
		if ctx.Err() != nil {
			s.phaseEnd(PhaseLockGaveUp, waiting)
		}
		return nil, err
	}
	s.phaseEnd(PhaseLock, waiting)
	t.sweep()
	return t, nil
}

// tryBegin is begin for a read that would repair but must not wait: the
// same steps, except that if the name's slot in this process or its lock
// file is taken by a live holder it gives up at once, with ok false and no
// error.
func (s *Store) tryBegin(name string) (t *txn, ok bool, err error) {
	if err := s.enter(); err != nil {
		return nil, false, err
	}
	t = &txn{s: s, name: name}
	if t.dequeue, ok = s.queue.tryAcquire(name); !ok {
		t.end()
		return nil, false, nil
	}
	if t.dirs, err = s.openMetaDirs(); err != nil {
		t.end()
		return nil, false, err
	}
	if t.lock, ok, err = s.tryLockScene(t.dirs.locks, name); err != nil || !ok {
		t.end()
		return nil, false, err
	}
	t.sweep()
	return t, true, nil
}

// end releases what begin took, in reverse order.
func (t *txn) end() {
	t.closeJournal()
	if t.lock != nil {
		t.s.unlock(t.lock)
	}
	if t.dirs != nil {
		t.dirs.close()
	}
	if t.dequeue != nil {
		t.dequeue()
	}
	t.s.leave()
}

// sweep removes leftover temp files of the txn's scene (a crash between
// creating and renaming one). Reads and listings already ignore them; this
// only reclaims space, so failures are logged.
func (t *txn) sweep() {
	if _, done := t.s.swept.LoadOrStore(t.name, struct{}{}); done {
		return
	}
	t.sweepDir(t.s.root, func(target string) bool { return target == sceneFile(t.name) })
	t.sweepDir(t.dirs.meta, func(target string) bool { return target == sidecarFile(t.name) })
	t.sweepDir(t.dirs.journal, func(target string) bool { return target == journalFile(t.name) })
	t.sweepDir(t.dirs.backups, func(target string) bool {
		_, _, ok := parseBackup(t.name, target)
		return ok
	})
}

func (t *txn) sweepDir(d *os.File, match func(target string) bool) {
	names, err := t.s.fs.ReadDir(d)
	if err != nil {
		t.s.log.Warn("sweep temp files", zap.String("dir", d.Name()), zap.Error(err))
		return
	}
	for _, n := range names {
		if target, ok := splitTemp(n); ok && match(target) {
			t.s.log.Info("removing leftover temp file", zap.String("file", label(d, n)))
			t.s.removeQuietly(d, n)
		}
	}
}
