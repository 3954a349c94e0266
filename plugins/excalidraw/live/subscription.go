package live

import (
	"cmp"
	"slices"
)

// Subscription receives the changes of one scene, or of every scene (see
// Hub.SubscribeAll). It is a mailbox that keeps only the newest change per
// scene: when a newer revision arrives before the reader took the older,
// the older is replaced, because only the newest head matters to an
// editor or a scene list that will fetch what it needs anyway. So a
// subscriber never blocks a publisher, and never misses that a scene
// changed.
//
//	Publish ─► pending[name] = newest change ─► Ready() fires ─► Take() empties
type Subscription struct {
	hub   *Hub
	name  string        // the scene, or allScenes
	ready chan struct{} // holds a token while pending is non-empty; closed by Close

	// guarded by hub.mu
	pending map[string]Change
	closed  bool
}

// Ready receives a value when changes are waiting for Take, and is closed
// when the subscription ends (Close, or the Hub's Close).
func (s *Subscription) Ready() <-chan struct{} { return s.ready }

// Take returns the waiting changes, one per scene, in commit order (by
// time, then name), and empties the mailbox.
func (s *Subscription) Take() []Change {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if len(s.pending) == 0 {
		return nil
	}
	out := make([]Change, 0, len(s.pending))
	for _, c := range s.pending {
		out = append(out, c)
	}
	clear(s.pending)
	slices.SortFunc(out, func(a, b Change) int { return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.Name, b.Name)) })
	return out
}

// Close stops the subscription and closes Ready. It is idempotent and may
// race with Hub.Close.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	s.closeLocked()
}

func (s *Subscription) closeLocked() {
	if s.closed {
		return
	}
	s.closed = true
	if s.hub.subs != nil {
		s.hub.remove(s)
	}
	close(s.ready)
}

// offer records c as its scene's newest change and signals the reader;
// hub.mu must be held. It never blocks.
func (s *Subscription) offer(c Change) {
	if s.closed {
		return
	}
	s.pending[c.Name] = c
	select {
	case s.ready <- struct{}{}:
	default: // a token is already waiting
	}
}
