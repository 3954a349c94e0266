package statefile

import (
	"errors"
	"os"
	"sync"

	"go.uber.org/zap"
)

// View is the running server's cached copy of a store file that other
// processes may replace (the token file after `dsh token revoke`, the
// sessions file after `dsh sessions revoke` with no host running). load
// stats the file on every call and re-reads it only when it changed, so a
// change takes effect on the next request without a restart or a
// file-watcher goroutine. A stat is cheap next to an HTTP request.
//
// "Changed" includes a different inode: the stores replace their files by
// rename, so even an edit within the filesystem's mtime granularity that
// keeps the size is noticed. A writer in this process also calls
// Invalidate, which covers the one case a stat cannot see (the new file
// reusing the old one's inode, size and mtime).
type View[T any] struct {
	path  string
	what  string // "token file", for logs
	parse func(path string, data []byte) (T, error)
	log   *zap.Logger

	mu    sync.Mutex
	info  os.FileInfo // nil when the file did not exist, or failed, at last look
	stale bool        // set by invalidate: re-read even if the stat matches
	val   T
}

// NewView is a view of path; what names it in logs; a nil log is zap.NewNop().
func NewView[T any](path, what string, parse func(string, []byte) (T, error), log *zap.Logger) *View[T] {
	if log == nil {
		log = zap.NewNop()
	}
	return &View[T]{path: path, what: what, parse: parse, log: log}
}

// Load returns the file's contents as of now; a missing file is the zero T.
// On a read or parse error it returns the error and forgets what it had, so
// callers fail closed rather than trusting a file they can no longer read.
func (v *View[T]) Load() (T, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	var zero T
	fi, err := os.Stat(v.path)
	if errors.Is(err, os.ErrNotExist) {
		if v.info != nil {
			v.log.Info(v.what+" removed", zap.String("path", v.path))
		}
		v.info, v.val, v.stale = nil, zero, false
		return zero, nil
	}
	if err != nil {
		v.info, v.val = nil, zero
		return zero, err
	}
	if !v.stale && v.info != nil && os.SameFile(v.info, fi) && v.info.ModTime().Equal(fi.ModTime()) && v.info.Size() == fi.Size() {
		return v.val, nil
	}
	data, err := os.ReadFile(v.path)
	if err != nil {
		v.info, v.val = nil, zero
		return zero, err
	}
	val, err := v.parse(v.path, data)
	if err != nil {
		v.info, v.val = nil, zero
		return zero, err
	}
	v.info, v.val, v.stale = fi, val, false
	v.log.Debug(v.what+" loaded", zap.String("path", v.path))
	return val, nil
}

// Invalidate makes the next load re-read the file.
func (v *View[T]) Invalidate() {
	v.mu.Lock()
	v.stale = true
	v.mu.Unlock()
}

// Path is the file the view reads.
func (v *View[T]) Path() string { return v.path }
