package pgdb

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap"
)

// ListenerOptions configure a Listener; zero values are the defaults.
type ListenerOptions struct {
	// Logger receives connects, losses and reconnects; nil: none.
	Logger *zap.Logger
	// MinBackoff and MaxBackoff bound the wait before a reconnect, which
	// doubles from the one to the other while connecting fails (default
	// 100ms and 5s).
	MinBackoff, MaxBackoff time.Duration
	// Idle is how long the connection may go without a notification
	// before it is pinged, so a connection that died silently is found
	// (default 30s).
	Idle time.Duration
	// ConnectTimeout bounds connecting and LISTEN (default 10s): a server
	// or a path to it that takes the connection and never answers (a
	// proxy whose far side is gone) is given up and tried again, not
	// waited on for ever while the node misses every commit.
	ConnectTimeout time.Duration
}

// Listener hears one channel's notifications on every node of a
// database: a connection of its own (not one of the pool's) that LISTENs,
// and connects again whenever it is lost. It is the one way dsh follows
// other nodes (pgstore's commits, pgstate's documents).
type Listener struct {
	config  *pgx.ConnConfig
	channel string
	o       ListenerOptions
	log     *zap.Logger
	// Pinged, if set (tests), runs after each idle ping.
	Pinged func()
}

// NewListener is a Listener on channel of pool's database, connecting as
// the pool does. channel is one of dsh's own names (a plain identifier).
func NewListener(pool *pgxpool.Pool, channel string, o ListenerOptions) *Listener {
	if o.MinBackoff <= 0 {
		o.MinBackoff = 100 * time.Millisecond
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(5*time.Second, o.MinBackoff)
	}
	if o.Idle <= 0 {
		o.Idle = 30 * time.Second
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 10 * time.Second
	}
	log := o.Logger
	if log == nil {
		log = zap.NewNop()
	}
	return &Listener{config: pool.Config().ConnConfig.Copy(), channel: channel, o: o, log: log.With(zap.String("channel", channel))}
}

// Run listens until ctx ends, then returns ctx's error, leaving no
// goroutine or connection behind. It calls onNotify with each
// notification's payload, and onConnect (if not nil) once after each
// connect, the first included, once LISTEN is in place: what was notified
// while there was no connection is lost, so the caller re-reads what it
// follows then. Both run on Run's goroutine, one call at a time; the
// server queues notifications meanwhile.
func (l *Listener) Run(ctx context.Context, onNotify func(payload string), onConnect func(ctx context.Context)) error {
	wait := l.o.MinBackoff
	for {
		err := l.session(ctx, onNotify, onConnect, func() { wait = l.o.MinBackoff })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		l.log.Warn("listener: no connection; reconnecting", zap.Duration("in", wait), zap.Error(err))
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

// session is one connection: connect, LISTEN, onConnect, then the
// notifications until the connection fails or ctx ends. listening is
// called once LISTEN is in place.
func (l *Listener) session(ctx context.Context, onNotify func(string), onConnect func(context.Context), listening func()) error {
	sctx, cancel := context.WithTimeout(ctx, l.o.ConnectTimeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(sctx, l.config.Copy())
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = conn.Close(cctx)
	}()
	if _, err := conn.Exec(sctx, "LISTEN "+l.channel); err != nil {
		return err
	}
	cancel()
	listening()
	l.log.Info("listener: listening")
	if onConnect != nil {
		onConnect(ctx)
	}
	for {
		wctx, cancel := context.WithTimeout(ctx, l.o.Idle)
		n, err := conn.WaitForNotification(wctx)
		idle := errors.Is(wctx.Err(), context.DeadlineExceeded)
		cancel()
		switch {
		case err == nil:
			onNotify(n.Payload)
		case ctx.Err() != nil:
			return ctx.Err()
		case idle && !conn.IsClosed():
			if err := conn.Ping(ctx); err != nil {
				return err
			}
			if l.Pinged != nil {
				l.Pinged()
			}
		default:
			return err
		}
	}
}
