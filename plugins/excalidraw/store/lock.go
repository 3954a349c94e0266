package store

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// The cross-process lock: locks/<name>.lock, created with O_CREATE|O_EXCL
// while held and removed on release, containing the holder's pid, hostname
// and start time. The holder also takes flock(2) on the file for as long as
// it holds it, and that is what makes liveness and reclaiming reliable:
//
//   - The kernel drops a flock when its process dies, however it dies. So if
//     another process can flock a lock file whose holder record is complete,
//     the holder is gone (holders write the record only after taking the
//     flock), and the file is reclaimed at once, wherever the holder ran.
//   - A lock file whose flock is held is live, whatever its age: a slow
//     holder is never robbed.
//   - A reclaimer unlinks the stale file only while holding its flock and
//     after checking that the path still names the inode it locked, so two
//     reclaimers cannot both win, and a fresh lock created in the meantime is
//     never removed.
//   - The StaleLockAge rule (by mtime, default 30 s) covers the rest: a file
//     with no complete record (its creator died between create and write) and
//     filesystems without flock. Without flock, a file is also reclaimed at
//     once when its holder is on this host and its pid is not alive.
//
// Holders refresh nothing; operations are short. Waiting for a live lock
// backs off (1 ms doubling to 50 ms, jittered) until LockTimeout, then the
// operation fails with scene_busy.
type fileLock struct {
	dir      *os.File
	name     string
	f        *os.File
	dev, ino uint64
}

// lockHolder is the record inside a lock file (for reclaiming and for people).
type lockHolder struct {
	PID  int    `json:"pid"`
	Host string `json:"host"`
	At   string `json:"at"`
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
//  1. Take its flock. Only a reclaimer inspecting the file can hold it now,
//     and only for an instant, so poll briefly; on a filesystem without flock
//     carry on without it.
//  2. Check the path still names this file (a reclaimer with a tiny
//     StaleLockAge may have removed it); if not, start over.
//  3. Write the holder record.
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
			// An inspector held our new file's flock all along (a stopped
			// process?). Remove the file rather than leave an empty record
			// that others would wait StaleLockAge for.
			if l := (&fileLock{dir: dir, name: name, f: f}); s.sameFile(l) {
				s.removeQuietly(dir, name)
			}
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
	rec, _ := json.Marshal(lockHolder{PID: s.pid, Host: s.host, At: formatTime(time.Now())})
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
//  3. Stale if: older than StaleLockAge; or we hold the flock and the record
//     is complete (its holder had the flock and lost it, so it died); or,
//     without flock, the holder is on this host and its pid is not alive.
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
	case age > s.opts.StaleLockAge:
		reason = "older than the stale lock age"
	case held && holder != nil:
		reason = "its holder no longer holds the flock (process gone)"
	case !held && holder != nil && holder.Host == s.host && holder.PID != s.pid && !pidAlive(holder.PID):
		reason = "its holder's pid is not alive on this host"
	default:
		return lockWait, holder, nil
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
