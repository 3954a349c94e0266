package live

// Subscription receives the changes of one scene. Its channel holds at
// most one change: when a newer one arrives before the reader took the
// older, the older is replaced, because only the newest head matters to
// an editor that will fetch the scene anyway.
type Subscription struct {
	hub    *Hub
	name   string
	ch     chan Change
	closed bool // guarded by hub.mu
}

// C delivers changes; it is closed by Close or by the Hub's Close.
func (s *Subscription) C() <-chan Change { return s.ch }

// Close stops the subscription and closes its channel. It is idempotent
// and may race with Hub.Close.
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
	close(s.ch)
}

// offer delivers c, replacing an undelivered older change. hub.mu must be
// held: senders are then serialized, so after the buffer is emptied the
// second send always has room and the whole offer never blocks.
func (s *Subscription) offer(c Change) {
	select {
	case s.ch <- c:
		return
	default:
	}
	select {
	case <-s.ch:
	default:
	}
	select {
	case s.ch <- c:
	default:
	}
}
