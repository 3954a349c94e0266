package tools

import (
	"sync"

	"go.uber.org/zap"
)

// subscribers is the set of change listeners of a Registry.
type subscribers struct {
	mu   sync.Mutex
	next uint64
	fns  map[uint64]func()
}

// Subscribe registers fn to be called after any tool is added or removed,
// and returns a function that cancels the subscription (idempotent).
//
// fn is called outside the registry's locks, so it may call back into the
// registry (typically List). It carries no payload on purpose: concurrent
// changes may be reported in any order, so a listener should re-read the
// registry rather than replay deltas; the last call always observes the
// latest state. A panicking listener is logged and does not affect the
// registration that triggered it.
func (r *Registry) Subscribe(fn func()) (cancel func()) {
	if fn == nil {
		return func() {}
	}
	return r.subs.add(fn)
}

func (s *subscribers) add(fn func()) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fns == nil {
		s.fns = make(map[uint64]func())
	}
	id := s.next
	s.next++
	s.fns[id] = fn
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.fns, id)
	}
}

// notify calls every listener that is subscribed at the time of the call.
func (s *subscribers) notify(log *zap.Logger) {
	s.mu.Lock()
	fns := make([]func(), 0, len(s.fns))
	for _, fn := range s.fns {
		fns = append(fns, fn)
	}
	s.mu.Unlock()
	for _, fn := range fns {
		callListener(log, fn)
	}
}

func callListener(log *zap.Logger, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("registry listener panicked", zap.Any("panic", r), zap.StackSkip("stack", 2))
		}
	}()
	fn()
}
