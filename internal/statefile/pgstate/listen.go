package pgstate

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"go.uber.org/zap"
)

// Listen delivers the change notices of the documents: fn is called, on
// Listen's goroutine, with a document's name after each Update of it
// commits, on any node (this one included). Views need no notice (each
// Load checks the version); the notice is for what must react at once,
// such as cutting the open streams of a token another node revoked.
//
// Listen returns once it listens, or with the error of its first
// connection (a connection of its own, not one of the pool's). From then
// on it keeps listening until ctx ends or stop is called: a lost
// connection is made again, backing off from one second to thirty, and
// fn("") is called once it is back, since notices sent meanwhile were
// missed (anything may have changed). stop returns when Listen's
// goroutine has ended.
func (b *Backend) Listen(ctx context.Context, fn func(name string)) (stop func(), err error) {
	conn, err := b.listenConn(ctx)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.listen(ctx, conn, fn)
	}()
	return func() { cancel(); <-done }, nil
}

// listenConn connects and listens on Channel.
func (b *Backend) listenConn(ctx context.Context) (*pgx.Conn, error) {
	parent := ctx
	ctx, cancel := b.bound(ctx)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, b.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, b.describe(parent, "listen", err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+Channel); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, b.describe(parent, "listen", err)
	}
	return conn, nil
}

func (b *Backend) listen(ctx context.Context, conn *pgx.Conn, fn func(string)) {
	defer func() {
		if conn != nil {
			cctx, cancel := context.WithTimeout(context.Background(), b.timeout)
			_ = conn.Close(cctx)
			cancel()
		}
	}()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err == nil {
			fn(n.Payload)
			continue
		}
		if ctx.Err() != nil {
			return
		}
		b.log.Warn("state change notices lost; listening again", zap.Error(b.describe(ctx, "listen", err)))
		cctx, cancel := context.WithTimeout(context.Background(), b.timeout)
		_ = conn.Close(cctx)
		cancel()
		conn = nil
		for wait := time.Second; conn == nil; wait = min(2*wait, 30*time.Second) {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			if conn, err = b.listenConn(ctx); err != nil {
				conn = nil
				if ctx.Err() != nil {
					return
				}
				b.log.Warn("state change notices: cannot listen yet", zap.Error(err))
			}
		}
		b.log.Info("state change notices: listening again")
		fn("")
	}
}
