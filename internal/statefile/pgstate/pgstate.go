// Package pgstate keeps dsh's small shared state in PostgreSQL, so that
// several nodes on one database share it and any node can serve any
// request: the named documents of package statefile (the tokens, the
// sessions, the people, the boards, ...), one row each of table
// state_docs, and the rate limits' windows, rows of table rate_events
// (migration 00002_state.sql of package pgdb).
//
// A document's Update is one transaction with its row locked (made first
// if missing, then SELECT … FOR UPDATE), so two nodes never lose each
// other's changes; it bumps the row's version and sends the notice
// pg_notify('dsh_state', name), which Listen delivers on every node. A
// View's check is one read of the version. A window's Take counts and
// adds under a transaction-scoped advisory lock of its key.
//
// Every call is bounded by Options.Timeout; a server that cannot be
// reached, or stops answering, is an error that wraps pgdb.ErrUnreachable
// and names the server. Callers that decide on access refuse on any error.
package pgstate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
)

// Channel is the notification channel of document changes: the payload
// is the document's name.
const Channel = "dsh_state"

// DefaultTimeout bounds each call whose context has no deadline.
const DefaultTimeout = 10 * time.Second

// Options configure a Backend; the zero value is fine.
type Options struct {
	// Timeout bounds each operation whose context has no deadline of its
	// own (0: DefaultTimeout), so a server that stops answering fails
	// the call with pgdb.ErrUnreachable instead of hanging a request.
	Timeout time.Duration
	// Logger hears of Listen's lost and regained connections; nil logs
	// nothing.
	Logger *zap.Logger
}

// Backend is statefile.Backend in PostgreSQL: documents in state_docs,
// windows in rate_events. It is safe for concurrent use; every node makes
// its own on its own pool.
type Backend struct {
	pool    *pgxpool.Pool
	timeout time.Duration
	log     *zap.Logger
	windows *windows
}

var _ statefile.Backend = (*Backend)(nil)

// New is the state kept in the database of pool, whose schema pgdb.Open
// (or pgdb.Migrate) brought up to date.
func New(pool *pgxpool.Pool, o Options) *Backend {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	b := &Backend{pool: pool, timeout: o.Timeout, log: o.Logger}
	b.windows = &windows{b: b}
	return b
}

// Doc is the document called name. The name is a logical one, the same on
// every node ("tokens", "sessions"), never a path.
func (b *Backend) Doc(name string) statefile.Doc {
	if name == "" {
		panic("pgstate: a document needs a name")
	}
	return &doc{b: b, name: name}
}

// Windows are the rate-limit windows in rate_events, counted across every
// node on the database.
func (b *Backend) Windows() statefile.Windows { return b.windows }

// bound gives ctx the backend's timeout when it has no deadline.
func (b *Backend) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, b.timeout)
}

// describe makes err, from an operation on ctx (what it was, for the
// message), the error callers see: the server not answering, or not
// within the timeout, wraps pgdb.ErrUnreachable and names the server.
func (b *Backend) describe(parent context.Context, what string, err error) error {
	if err == nil {
		return nil
	}
	cfg := b.pool.Config().ConnConfig
	if errors.Is(err, context.DeadlineExceeded) && parent.Err() == nil {
		return fmt.Errorf("pgstate: %s: %w at %s:%d: no answer within %v", what, pgdb.ErrUnreachable, cfg.Host, cfg.Port, b.timeout)
	}
	if pgdb.Unreachable(err) {
		return fmt.Errorf("pgstate: %s: %w", what, pgdb.Describe(err, cfg.Host, cfg.Port))
	}
	return fmt.Errorf("pgstate: %s: %w", what, err)
}

// tx runs fn in one READ COMMITTED transaction, bounded by the timeout,
// and commits it when fn reports commit (else rolls it back). It is the
// one way this package writes. Errors are described (see describe).
func (b *Backend) tx(ctx context.Context, what string, fn func(ctx context.Context, tx pgx.Tx) (commit bool, err error)) error {
	parent := ctx
	ctx, cancel := b.bound(ctx)
	defer cancel()
	tx, err := b.pool.Begin(ctx)
	if err != nil {
		return b.describe(parent, what, err)
	}
	defer func() {
		// A no-op after Commit; bounded, for a server gone quiet.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.timeout)
		defer cancel()
		_ = tx.Rollback(rctx)
	}()
	commit, err := fn(ctx, tx)
	if err != nil {
		return b.describe(parent, what, err)
	}
	if !commit {
		return nil
	}
	return b.describe(parent, what, tx.Commit(ctx))
}

// query runs fn (reads outside a transaction), bounded and described like
// tx.
func (b *Backend) query(ctx context.Context, what string, fn func(ctx context.Context) error) error {
	parent := ctx
	ctx, cancel := b.bound(ctx)
	defer cancel()
	return b.describe(parent, what, fn(ctx))
}
