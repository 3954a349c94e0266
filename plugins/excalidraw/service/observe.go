package service

import (
	"sync/atomic"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Observer is told how the service's work went, for metrics. Its
// methods run on the caller's goroutine, so they must be quick and safe
// for concurrent use. err is what the caller is answered (its
// sceneerr code says why), nil for success.
type Observer interface {
	// Committed: a store write (kind create, update or save) ended
	// after d, the access check excluded, a group commit's wait
	// included, with outcome: ok, unchanged (nothing to write),
	// duplicate (a request id's replay, answered with its result) or the
	// error's code.
	Committed(kind, outcome string, d time.Duration)
	// Rendered: a render (format png or svg) ended after d.
	Rendered(format string, d time.Duration, err error)
	// Phase: one phase of a commit took d (store.Phase…: the file
	// store's lock, write, fsync, rename, journal; PostgreSQL's begin,
	// lock, read, write, commit), or a wait for the scene's lock gave up
	// (store.PhaseLockGaveUp).
	Phase(phase string, d time.Duration)
	// Conflicted: a write was refused with revision_conflict from the
	// scene's head alone (Stale), before it reached the store.
	Conflicted()
}

// observing holds the service's Observer, nil when none is set (the
// hooks then cost one atomic load).
type observing struct{ o atomic.Pointer[Observer] }

// Observe sets the observer told of every commit and render from now on;
// nil stops telling.
func (s *Service) Observe(o Observer) {
	if o == nil {
		s.store.obs.o.Store(nil)
		return
	}
	s.store.obs.o.Store(&o)
}

// noop ends an unobserved piece of work.
func noop(error) {}

// noCommit ends an unobserved store write.
func noCommit(*store.Result, error) {}

// commit starts timing a store write of kind; the returned func ends it.
func (ob *observing) commit(kind string) func(*store.Result, error) {
	p := ob.o.Load()
	if p == nil {
		return noCommit
	}
	start := time.Now()
	return func(res *store.Result, err error) { (*p).Committed(kind, commitOutcome(res, err), time.Since(start)) }
}

// commitOutcome is how a store write ended, as Observer.Committed says.
func commitOutcome(res *store.Result, err error) string {
	switch {
	case err != nil:
		return Outcome(mapError(err))
	case res != nil && res.Duplicate:
		return "duplicate"
	case res != nil && res.Unchanged:
		return "unchanged"
	}
	return "ok"
}

// Outcome is "ok" for nil, else err's code, or "internal" for an error
// without one: a label of bounded values.
func Outcome(err error) string {
	if err == nil {
		return "ok"
	}
	if code := sceneerr.CodeOf(err); code != "" {
		return string(code)
	}
	return "internal"
}

// render starts timing a render in format; the returned func ends it.
func (ob *observing) render(format string) func(error) {
	p := ob.o.Load()
	if p == nil {
		return noop
	}
	start := time.Now()
	return func(err error) { (*p).Rendered(format, time.Since(start), err) }
}

// conflict tells of a write Stale refused.
func (ob *observing) conflict() {
	if p := ob.o.Load(); p != nil {
		(*p).Conflicted()
	}
}

// phase tells of a commit's phase (store.Options.Phases).
func (ob *observing) phase(phase string, d time.Duration) {
	if p := ob.o.Load(); p != nil {
		(*p).Phase(phase, d)
	}
}
