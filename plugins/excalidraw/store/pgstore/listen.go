package pgstore

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap"
)

// ListenerOptions configure a Listener; zero values are the defaults.
type ListenerOptions struct {
	// Logger receives connects, losses and bad notifications; nil: none.
	Logger *zap.Logger
	// MinBackoff and MaxBackoff bound the wait before a reconnect, which
	// doubles from the one to the other while connecting fails (default
	// 100ms and 5s).
	MinBackoff, MaxBackoff time.Duration
	// Idle is how long the connection may go without a notification
	// before it is pinged, so a connection that died silently is found
	// (default 30s).
	Idle time.Duration
}

// Listener follows the commits of every node on a database: a connection
// of its own (not one of the pool's) listening on Channel.
type Listener struct {
	config *pgx.ConnConfig
	o      ListenerOptions
	log    *zap.Logger
	pinged func() // tests: after each idle ping
}

// NewListener is a Listener on pool's database, connecting as the pool
// does.
func NewListener(pool *pgxpool.Pool, o ListenerOptions) *Listener {
	if o.MinBackoff <= 0 {
		o.MinBackoff = 100 * time.Millisecond
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(5*time.Second, o.MinBackoff)
	}
	if o.Idle <= 0 {
		o.Idle = 30 * time.Second
	}
	log := o.Logger
	if log == nil {
		log = zap.NewNop()
	}
	return &Listener{config: pool.Config().ConnConfig.Copy(), o: o, log: log}
}

// Run listens until ctx ends, then returns ctx's error, leaving no
// goroutine or connection behind. It calls onCommit with each commit's
// scene and revision (this node's own too: CommittedHere tells them),
// and onResync (if not nil) once after each connect, the first
// included, once LISTEN is in place: a commit made while there was no
// connection was not notified, so the caller re-reads what it follows
// then. Both run on Run's goroutine, one call at a time; the server
// queues notifications meanwhile. A lost connection is made again after
// a backoff (MinBackoff, doubling to MaxBackoff while connecting fails).
func (l *Listener) Run(ctx context.Context, onCommit func(name string, revision int64), onResync func(ctx context.Context)) error {
	wait := l.o.MinBackoff
	for {
		err := l.session(ctx, onCommit, onResync, func() { wait = l.o.MinBackoff })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		l.log.Warn("commit listener: no connection; reconnecting", zap.Duration("in", wait), zap.Error(err))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(wait*2, l.o.MaxBackoff)
	}
}

// session is one connection: connect, LISTEN, onResync, then the
// notifications until the connection fails or ctx ends. listening is
// called once LISTEN is in place.
func (l *Listener) session(ctx context.Context, onCommit func(string, int64), onResync func(context.Context), listening func()) error {
	conn, err := pgx.ConnectConfig(ctx, l.config.Copy())
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = conn.Close(cctx)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+Channel); err != nil {
		return err
	}
	listening()
	l.log.Info("commit listener: listening", zap.String("channel", Channel))
	if onResync != nil {
		onResync(ctx)
	}
	for {
		wctx, cancel := context.WithTimeout(ctx, l.o.Idle)
		n, err := conn.WaitForNotification(wctx)
		idle := errors.Is(wctx.Err(), context.DeadlineExceeded)
		cancel()
		switch {
		case err == nil:
			name, rev, ok := parsePayload(n.Payload)
			if !ok {
				l.log.Warn("commit listener: a notification not of a commit", zap.String("payload", n.Payload))
				continue
			}
			onCommit(name, rev)
		case ctx.Err() != nil:
			return ctx.Err()
		case idle && !conn.IsClosed():
			if err := conn.Ping(ctx); err != nil {
				return err
			}
			if l.pinged != nil {
				l.pinged()
			}
		default:
			return err
		}
	}
}

// parsePayload splits "<name> <revision>".
func parsePayload(p string) (string, int64, bool) {
	name, r, ok := strings.Cut(p, " ")
	rev, err := strconv.ParseInt(r, 10, 64)
	return name, rev, ok && err == nil && name != "" && rev > 0
}
