package webserver

import "sync"

// gate counts in-flight requests and, once closed, refuses new ones and
// signals when the last one leaves.
//
// It exists because sync.WaitGroup forbids Add concurrently with Wait when
// the counter may be zero — exactly the situation of requests racing an
// Unmount. Here entering and closing take the same lock, so a request has
// either entered before the close (and will be waited for) or is refused.
type gate struct {
	mu      sync.Mutex
	n       int
	closed  bool
	drained chan struct{} // closed once closed && n == 0
}

func newGate() *gate {
	return &gate{drained: make(chan struct{})}
}

// enter admits one request unless the gate is closed.
func (g *gate) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.n++
	return true
}

// leave must be called exactly once per successful enter.
func (g *gate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n--
	if g.closed && g.n == 0 {
		close(g.drained)
	}
}

// close refuses further requests and returns a channel closed when none are
// left running. It is idempotent.
func (g *gate) close() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.closed = true
		if g.n == 0 {
			close(g.drained)
		}
	}
	return g.drained
}

// running is the number of requests inside.
func (g *gate) running() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}
