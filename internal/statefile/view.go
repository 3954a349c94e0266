package statefile

import (
	"context"
	"sync"

	"go.uber.org/zap"
)

// View is the running server's cached, parsed copy of a document that
// other writers may change (the token file after `dsh token revoke`, the
// sessions another node revoked). Load asks the document whether it
// changed on every call (Doc.Fetch: a stat of a file, a one-row version
// query of PostgreSQL) and re-reads and re-parses it only when it did, so
// a change takes effect on the next request without a restart or a
// watcher goroutine.
//
// A writer in this process also calls Invalidate, which covers the one
// case a stat cannot see (a new file reusing the old one's inode, size
// and mtime).
type View[T any] struct {
	doc   Doc
	parse func(where string, data []byte) (T, error)
	log   *zap.Logger

	mu      sync.Mutex
	gen     uint64  // counts installs and invalidations
	ver     Version // of val; nil: nothing cached (never loaded, failed, or invalidated)
	present bool    // the document existed at ver
	val     T
}

// NewView is a view of the file at path; what names it in errors and logs;
// a nil log is zap.NewNop(). It is ViewOf(File(path, what), ...).
func NewView[T any](path, what string, parse func(string, []byte) (T, error), log *zap.Logger) *View[T] {
	return ViewOf(File(path, what), parse, log)
}

// ViewOf is a view of d; parse is given d.Where() for its messages; a nil
// log is zap.NewNop().
func ViewOf[T any](d Doc, parse func(where string, data []byte) (T, error), log *zap.Logger) *View[T] {
	if log == nil {
		log = zap.NewNop()
	}
	return &View[T]{doc: d, parse: parse, log: log}
}

// Load returns the document's contents as of now; a missing document is
// the zero T. On a read or parse error it returns the error and forgets
// what it had, so callers fail closed rather than trusting a document they
// can no longer read.
//
// Loads run in parallel: the check (and any re-read) is not made under
// the view's lock, so one slow check does not hold up the others. ctx
// bounds the check and the re-read.
func (v *View[T]) Load(ctx context.Context) (T, error) {
	for {
		if val, ok, err := v.load(ctx); ok || err != nil {
			return val, err
		}
	}
}

// load is one try of Load; ok is false when the document was unchanged
// but what the view held was dropped meanwhile (the next try fetches,
// since it has no version to give).
func (v *View[T]) load(ctx context.Context) (val T, ok bool, err error) {
	v.mu.Lock()
	gen, since := v.gen, v.ver
	v.mu.Unlock()

	var zero T
	data, ver, changed, err := v.doc.Fetch(ctx, since)
	if err != nil {
		v.forget(gen)
		return zero, false, err
	}
	if !changed {
		v.mu.Lock()
		defer v.mu.Unlock()
		// Another load may have installed newer contents since: they are
		// as good. Forgotten or invalidated: look again.
		return v.val, v.ver != nil, nil
	}
	if data != nil {
		if val, err = v.parse(v.doc.Where(), data); err != nil {
			v.forget(gen)
			return zero, false, err
		}
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.gen != gen {
		// Another load installed, or a writer invalidated, since this one
		// began: keep theirs; this one's answer was current when read.
		return val, true, nil
	}
	switch {
	case data == nil && v.present:
		v.log.Info("state document removed", zap.String("where", v.doc.Where()))
	case data != nil:
		v.log.Debug("state document loaded", zap.String("where", v.doc.Where()))
	}
	v.gen++
	v.ver, v.present, v.val = ver, data != nil, val
	return val, true, nil
}

// forget drops what the view holds after a failed load, unless another
// load has installed something newer since this one began.
func (v *View[T]) forget(gen uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.gen == gen {
		var zero T
		v.gen++
		v.ver, v.present, v.val = nil, false, zero
	}
}

// Invalidate makes the next load re-read the document.
func (v *View[T]) Invalidate() {
	v.mu.Lock()
	v.gen++
	v.ver = nil
	v.mu.Unlock()
}

// Doc is the document the view reads.
func (v *View[T]) Doc() Doc { return v.doc }

// Path is where the document lives (Doc().Where()): for a file, its path.
func (v *View[T]) Path() string { return v.doc.Where() }
