package pgstate

import (
	"context"
	"fmt"
	"time"

	"github.com/dshgo/dsh/internal/pgdb"
)

// Listen delivers the change notices of the documents: fn is called, on
// Listen's goroutine, with a document's name after each Update of it
// commits, on any node (this one included). Views need no notice (each
// Load checks the version); the notice is for what must react at once,
// such as cutting the open streams of a token another node revoked.
//
// Listen returns once it listens (pgdb.Listener, a connection of its
// own), or fails when it cannot within the backend's timeout. From then
// on it keeps listening until ctx ends or stop is called: a lost
// connection is made again, and fn("") is called once it is back, since
// notices sent meanwhile were missed (anything may have changed). stop
// returns when Listen's goroutine has ended.
func (b *Backend) Listen(ctx context.Context, fn func(name string)) (stop func(), err error) {
	ctx, cancel := context.WithCancel(ctx)
	l := pgdb.NewListener(b.pool, Channel, pgdb.ListenerOptions{Logger: b.log})
	listening := make(chan struct{})
	done := make(chan struct{})
	first := true
	go func() {
		defer close(done)
		_ = l.Run(ctx, fn, func(context.Context) {
			if first {
				first = false
				close(listening)
				return
			}
			fn("")
		})
	}()
	stop = func() { cancel(); <-done }
	select {
	case <-listening:
		return stop, nil
	case <-time.After(b.timeout):
		stop()
		cfg := b.pool.Config().ConnConfig
		return nil, fmt.Errorf("pgstate: listen: %w at %s:%d: no connection within %v", pgdb.ErrUnreachable, cfg.Host, cfg.Port, b.timeout)
	}
}
