package store

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// The cross-process lock: locks/<name>.lock, created with O_CREATE|O_EXCL
// while held and removed on release, containing the holder's pid, hostname,
// when it took the lock and, where /proc tells, its process identity (see
// holderDead). Only writes, and a read that repairs, take it; plain reads
// never do (see Read). The holder also takes
// flock(2) on the file for as long as it holds it, and that is the proof
// liveness and reclaiming rest on:
//
//   - The kernel drops a flock when its process dies, however it dies. So if
//     another process can take the flock of the file the path names, nobody
//     holds the lock: its creator is gone, wherever it ran, whether or not it
//     got as far as writing its record. The file is reclaimed at once. (A
//     creator still alive between its O_EXCL create and its flock loses
//     nothing: after taking the flock it checks that the path still names
//     its file, and starts over if a reclaimer removed it meanwhile; it
//     writes its record only after that check.)
//   - A lock file whose flock is held is live, whatever its age or record: a
//     slow holder is never robbed.
//   - Only the holder of the flock of the inode the path names may unlink
//     the path: the holder on release, a reclaimer while it holds the flock
//     of the file it judged, after checking that the path still names it.
//     So two reclaimers cannot both win, and a fresh lock created in the
//     meantime is never removed.
//   - Where flock is not supported (the filesystem refuses it), the record
//     is all there is. A holder on this host (same hostname, same boot and
//     pid namespace as recorded) is dead if its pid is gone or now belongs to
//     a process with another start time (pid reuse). Owners that cannot be
//     checked (another host, an unreadable or empty record, another pid
//     namespace) are reclaimed by the StaleLockAge rule: once the file's
//     mtime is older (default 30 s).
//
// Holders refresh nothing; operations are short. Waiting for a live lock
// backs off (1 ms doubling to 50 ms, jittered) until LockTimeout, then the
// operation fails with scene_busy. tryLockScene is the variant that does
// not wait, for reads that repair only if nobody else is writing.
type fileLock struct {
	dir      *os.File
	name     string
	f        *os.File
	dev, ino uint64
}

// lockHolder is the record inside a lock file (for reclaiming and for people).
// Proc is "<scope>/<start>" (see procIdentity), empty where unknown and in
// records written by older versions.
type lockHolder struct {
	PID  int    `json:"pid"`
	Host string `json:"host"`
	At   string `json:"at"`
	Proc string `json:"proc,omitempty"`
}

// lockStep is what one attempt concluded.
type lockStep int

const (
	lockAcquired lockStep = iota
	lockRetryNow          // the file changed or was reclaimed; try again at once
	lockWait              // a live holder; back off
)

const maxLockBackoff = 50 * time.Millisecond

// lockScene acquires the cross-process lock of scene in dir (the locks dir).
func (s *Store) lockScene(ctx context.Context, dir *os.File, scene string) (*fileLock, error) {
	name := lockFile(scene)
	deadline := time.Now().Add(s.opts.LockTimeout)
	backoff := time.Millisecond
	var holder *lockHolder
	immediate := 0 // consecutive retries without sleeping
	for {
		l, step, h, err := s.tryLock(dir, name, deadline)
		if err != nil || step == lockAcquired {
			return l, err
		}
		if h != nil {
			holder = h
		}
		if step == lockRetryNow && immediate < 3 && time.Now().Before(deadline) {
			immediate++
			continue
		}
		immediate = 0
		remaining := time.Until(deadline)
		if remaining <= 0 {
			return nil, busyError(scene, s.opts.LockTimeout, holder, nil)
		}
		if err := sleepCtx(ctx, min(backoff/2+rand.N(backoff), remaining)); err != nil {
			return nil, busyError(scene, s.opts.LockTimeout, holder, err)
		}
		backoff = min(backoff*2, maxLockBackoff)
	}
}

// tryLock makes one attempt: create the file exclusively, or else inspect the
// existing one and reclaim it if stale.
func (s *Store) tryLock(dir *os.File, name string, deadline time.Time) (*fileLock, lockStep, *lockHolder, error) {
	f, err := s.fs.OpenFile(dir, name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		l, step, err := s.holdNew(dir, name, f, deadline)
		return l, step, nil, err
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, 0, nil, fsError("create lock file", err)
	}
	step, h, err := s.inspectLock(dir, name)
	return nil, step, h, err
}

// holdNew finishes acquiring a lock file this process just created.
//
//  1. Take its flock. Only an inspector can hold it now (it judged the file
//     free and is reclaiming it), and only for an instant, so poll briefly;
//     on a filesystem without flock carry on without it.
//  2. Check the path still names this file (a reclaimer may have removed
//     it, judging it dead because its flock was free); if not, start over.
//  3. Write the holder record.
//
// If the flock stays taken until the deadline (the inspector was stopped),
// give up without removing the file: only the flock's holder may, and that
// inspector will when it resumes.
func (s *Store) holdNew(dir *os.File, name string, f *os.File, deadline time.Time) (*fileLock, lockStep, error) {
	for {
		err := s.flockFile(f, unix.LOCK_EX|unix.LOCK_NB)
		if err == nil || !errors.Is(err, unix.EWOULDBLOCK) {
			if err != nil {
				s.log.Debug("flock unsupported; relying on the lock file alone", zap.Error(err))
			}
			break
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, lockWait, nil
		}
		time.Sleep(time.Millisecond)
	}
	l := &fileLock{dir: dir, name: name, f: f}
	if !s.sameFile(l) {
		f.Close()
		return nil, lockRetryNow, nil
	}
	ownLocks.Store(fileKey{l.dev, l.ino}, struct{}{})
	rec, _ := json.Marshal(lockHolder{PID: s.pid, Host: s.host, At: formatTime(time.Now()), Proc: s.proc})
	if _, err := s.fs.Write(f, append(rec, '\n')); err != nil {
		s.unlock(l)
		return nil, 0, fsError("write lock file", err)
	}
	return l, lockAcquired, nil
}

// sameFile records l's device and inode from its descriptor and reports
// whether l.name in l.dir still refers to it.
func (s *Store) sameFile(l *fileLock) bool {
	fi, err := l.f.Stat()
	if err != nil {
		return false
	}
	pi, err := s.fs.Lstat(l.dir, l.name)
	if err != nil {
		return false
	}
	fdev, fino, _, ok1 := fileID(fi)
	pdev, pino, _, ok2 := fileID(pi)
	l.dev, l.ino = fdev, fino
	return ok1 && ok2 && fdev == pdev && fino == pino
}

// inspectLock decides whether an existing lock file is live or stale, and
// reclaims it if stale.
//
//  1. Open it (no symlinks) and try its flock without blocking. Held: the
//     holder is alive; wait.
//  2. Holding the flock, check the path still names the inode we opened (the
//     holder may have just released it); if not, retry at once.
//  3. Live if this process holds it (heldHere). Otherwise stale if
//     we hold the flock: nobody else does, so whoever created the file is
//     gone (or, alive before its own flock, will notice the removal and
//     start over), whatever the record says. Without flock: stale if the
//     holder is provably dead on this host (holderDead), or the file is
//     older than StaleLockAge.
//  4. Stale: unlink it while still holding the flock, then retry at once.
func (s *Store) inspectLock(dir *os.File, name string) (lockStep, *lockHolder, error) {
	f, err := s.fs.OpenFile(dir, name, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return lockRetryNow, nil, nil
	}
	if err != nil {
		return 0, nil, fsError("open lock file", err)
	}
	defer f.Close() // also drops our flock, after any unlink below

	info, err := f.Stat()
	if err != nil {
		return 0, nil, fsError("stat lock file", err)
	}
	if !info.Mode().IsRegular() {
		return 0, nil, errorf(CodePermissionDenied, "lock file %s is not a regular file", f.Name())
	}
	holder := readHolder(f)

	held := true
	if err := s.flockFile(f, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if errors.Is(err, unix.EWOULDBLOCK) {
			return lockWait, holder, nil
		}
		held = false // no flock on this filesystem
	}
	if held {
		if !s.sameFile(&fileLock{dir: dir, name: name, f: f}) {
			return lockRetryNow, holder, nil
		}
		// With the flock, the record cannot be half-written: read it again.
		holder = readHolder(f)
	}

	age := time.Since(info.ModTime())
	reason := ""
	switch {
	case heldHere(info):
		// A Store of this very process holds it. Its flock can look free
		// to us where flock is emulated with per-process POSIX locks (NFS).
		return lockWait, holder, nil
	case held && holder != nil:
		reason = "its holder no longer holds the flock (process gone)"
	case held:
		reason = "nobody holds its flock and it has no holder record (its creator died before writing one)"
	default:
		if why := s.holderDead(holder); why != "" {
			reason = why
		} else if age > s.opts.StaleLockAge {
			reason = "older than the stale lock age, and its holder cannot be checked"
		} else {
			return lockWait, holder, nil
		}
	}
	if err := s.fs.Remove(dir, name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, holder, fsError("remove stale lock file", err)
	}
	fields := []zap.Field{zap.String("lock", f.Name()), zap.String("reason", reason), zap.Duration("age", age)}
	if holder != nil {
		fields = append(fields, zap.Int("holderPid", holder.PID), zap.String("holderHost", holder.Host))
	}
	s.log.Warn("reclaimed stale scene lock", fields...)
	return lockRetryNow, holder, nil
}

// unlock releases l: remove the file if it is still ours, then close, which
// drops the flock. Removing first means a waiter that gets the flock of the
// old inode afterwards sees the path gone and starts over.
func (s *Store) unlock(l *fileLock) {
	if s.sameFile(l) {
		if err := s.fs.Remove(l.dir, l.name); err != nil {
			s.log.Warn("remove lock file", zap.String("lock", l.f.Name()), zap.Error(err))
		}
	}
	ownLocks.Delete(fileKey{l.dev, l.ino})
	l.f.Close()
}

func (s *Store) flockFile(f *os.File, how int) error {
	return dirFd(f, func(fd int) error {
		for {
			err := s.flock(fd, how)
			if err != unix.EINTR {
				return err
			}
		}
	})
}

// readHolder parses the record of a lock file; nil if absent or incomplete.
func readHolder(f *os.File) *lockHolder {
	buf, err := io.ReadAll(io.LimitReader(io.NewSectionReader(f, 0, 4096), 4096))
	if err != nil {
		return nil
	}
	var h lockHolder
	if json.Unmarshal(buf, &h) != nil || h.PID <= 0 {
		return nil
	}
	return &h
}

// ownLocks holds the device and inode of every lock file a Store of this
// process holds, from the moment its holder knows the path names it until
// release, so that another Store of the same process never judges it
// stale (see inspectLock).
var ownLocks sync.Map // fileKey → struct{}

type fileKey struct{ dev, ino uint64 }

// heldHere reports whether info is of a lock file this process holds.
func heldHere(info fs.FileInfo) bool {
	dev, ino, _, ok := fileID(info)
	if !ok {
		return false
	}
	_, mine := ownLocks.Load(fileKey{dev, ino})
	return mine
}

// holderDead is the judgement without flock: the reason the recorded holder
// is provably dead, or "" if it is alive or cannot be checked. Only a holder
// on this host can be checked, and only by its pid:
//
//   - With a Proc identity recorded in the same scope as ours (same boot,
//     same pid namespace): dead if the pid is gone, or if the process now
//     under that pid started at another time (the pid was reused). A
//     different scope cannot be checked.
//   - Without one (records of older versions, systems without /proc): dead
//     if the pid is gone; a reused pid looks alive, which only means waiting
//     for StaleLockAge.
func (s *Store) holderDead(h *lockHolder) string {
	if h == nil || h.Host != s.host {
		return ""
	}
	if h.Proc == "" {
		if h.PID != s.pid && !pidAlive(h.PID) {
			return "its holder's pid is not alive on this host"
		}
		return ""
	}
	scope, start, ok := strings.Cut(h.Proc, "/")
	if !ok || s.procScope == "" || scope != s.procScope {
		return ""
	}
	now, st := procStart(h.PID)
	switch {
	case st == procGone:
		return "its holder's process has exited"
	case st == procRunning && now != start:
		return "its holder's pid now belongs to another process (reused)"
	case st == procUnknown && !pidAlive(h.PID):
		return "its holder's pid is not alive on this host"
	}
	return ""
}

// tryLockScene is lockScene without waiting, for a read that wants to
// repair a scene but must not wait for anyone: ok is false, with no error,
// if a live holder has the lock. A lock file of a dead holder is still
// reclaimed.
func (s *Store) tryLockScene(dir *os.File, scene string) (l *fileLock, ok bool, err error) {
	name := lockFile(scene)
	for range 3 { // a release or reclaim in between: look again at once
		l, step, _, err := s.tryLock(dir, name, time.Now())
		switch {
		case err != nil:
			return nil, false, err
		case step == lockAcquired:
			return l, true, nil
		case step == lockWait:
			return nil, false, nil
		}
	}
	return nil, false, nil
}

// pidAlive reports whether a process with pid exists (EPERM: it exists but
// belongs to someone else).
func pidAlive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

func busyError(scene string, waited time.Duration, h *lockHolder, cause error) *Error {
	e := newError(CodeSceneBusy, "scene "+scene+" is locked by another writer", cause).
		with("name", scene).with("waited", waited.String())
	if h != nil {
		e.with("holderPid", h.PID).with("holderHost", h.Host).with("heldSince", h.At)
	}
	return e
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
