package pgstate

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dshgo/dsh/internal/statefile"
)

// rateLockClass is the first key of the advisory locks of rate_events'
// keys (the second is the key's hash): "dsh" in ASCII.
const rateLockClass = 0x647368

// sweepEvery is how often (by the callers' clock) one node deletes the
// events whose window has passed, of every key.
const sweepEvery = 10 * time.Minute

// windows are statefile.Windows in rate_events.
type windows struct {
	b         *Backend
	lastSweep atomic.Int64 // unix microseconds of the last sweep
}

var _ statefile.Windows = (*windows)(nil)

func (w *windows) Take(ctx context.Context, key string, now time.Time, limit int, window time.Duration) (bool, time.Time, error) {
	return w.TakeN(ctx, key, now, 1, limit, window)
}

func (w *windows) TakeN(ctx context.Context, key string, now time.Time, n, limit int, window time.Duration) (bool, time.Time, error) {
	now = now.Truncate(statefile.Precision)
	n = max(n, 1)
	if limit <= 0 {
		return false, now.Add(window), nil
	}
	if n > limit {
		return false, time.Time{}, nil // never
	}
	cut := now.Add(-window)
	ok, retry := false, time.Time{}
	err := w.b.tx(ctx, "count "+key, func(ctx context.Context, tx pgx.Tx) (bool, error) {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, rateLockClass, key); err != nil {
			return false, err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM rate_events WHERE key = $1 AND at <= $2`, key, cut); err != nil {
			return false, err
		}
		rows, err := tx.Query(ctx, `SELECT at FROM rate_events WHERE key = $1 ORDER BY at, id`, key)
		if err != nil {
			return false, err
		}
		ats, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
		if err != nil {
			return false, err
		}
		if have := len(ats); have+n > limit {
			retry = ats[have+n-limit-1].Add(window).UTC()
			return true, nil // the pruning stands
		}
		if _, err := tx.Exec(ctx, `INSERT INTO rate_events (key, at, expires_at) SELECT $1, $2, $3 FROM generate_series(1, $4::int)`,
			key, now, now.Add(window), n); err != nil {
			return false, err
		}
		ok = true
		return true, nil
	})
	if err != nil {
		return false, time.Time{}, err
	}
	w.sweep(ctx, now)
	return ok, retry, nil
}

// sweep deletes every key's passed events, at most once per sweepEvery
// per node; it is housekeeping, so a failure is only tried again later.
func (w *windows) sweep(ctx context.Context, now time.Time) {
	last := w.lastSweep.Load()
	if now.Sub(time.UnixMicro(last)) < sweepEvery || !w.lastSweep.CompareAndSwap(last, now.UnixMicro()) {
		return
	}
	_ = w.b.query(ctx, "sweep rate events", func(ctx context.Context) error {
		_, err := w.b.pool.Exec(ctx, `DELETE FROM rate_events WHERE expires_at <= $1`, now)
		return err
	})
}

func (w *windows) Undo(ctx context.Context, key string) error { return w.UndoN(ctx, key, 1) }

func (w *windows) UndoN(ctx context.Context, key string, n int) error {
	if n <= 0 {
		return nil
	}
	return w.b.query(ctx, "undo "+key, func(ctx context.Context) error {
		_, err := w.b.pool.Exec(ctx, `DELETE FROM rate_events WHERE id IN (SELECT id FROM rate_events WHERE key = $1 ORDER BY at DESC, id DESC LIMIT $2)`, key, n)
		return err
	})
}

func (w *windows) Clear(ctx context.Context, key string) error {
	return w.b.query(ctx, "clear "+key, func(ctx context.Context) error {
		_, err := w.b.pool.Exec(ctx, `DELETE FROM rate_events WHERE key = $1`, key)
		return err
	})
}

func (w *windows) Count(ctx context.Context, key string, now time.Time, window time.Duration) (int, time.Time, error) {
	cut := now.Truncate(statefile.Precision).Add(-window)
	var n int
	var oldest *time.Time
	err := w.b.query(ctx, "count "+key, func(ctx context.Context) error {
		return w.b.pool.QueryRow(ctx, `SELECT count(*), min(at) FROM rate_events WHERE key = $1 AND at > $2`, key, cut).Scan(&n, &oldest)
	})
	if err != nil || oldest == nil {
		return n, time.Time{}, err
	}
	return n, oldest.UTC(), nil
}
