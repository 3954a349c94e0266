package cli

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/plugins/database"
	"github.com/dshgo/dsh/plugins/storage"
)

// snapshotOf is db's database as it was at one instant, for `dsh backup`:
// a REPEATABLE READ, READ ONLY transaction exports its snapshot
// (pg_export_snapshot) and stays open, and the Storage returned reads
// only in transactions that import it (SET TRANSACTION SNAPSHOT), so
// every board, its history and kept revisions, and every state document
// (people, tokens, sessions, board records) are read as of that one
// instant, whatever is written meanwhile. Its pool starts each
// connection it hands out in such a transaction: a plain query runs in
// it (the connection is then let go, not reused), and a reader's own
// BEGIN … ROLLBACK joins and ends it (the next hand-out starts another).
// Writes through it fail (read only). end lets go of it all (once).
func snapshotOf(ctx context.Context, db *storage.Storage) (pinned *storage.Storage, end func(), err error) {
	conn, err := db.DB().Pool.Acquire(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("backup: %w", err)
	}
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		conn.Release()
		return nil, nil, fmt.Errorf("backup: %w", err)
	}
	stop := func() {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		conn.Release()
	}
	var id string
	if err := tx.QueryRow(ctx, `SELECT pg_export_snapshot()`).Scan(&id); err != nil {
		stop()
		return nil, nil, fmt.Errorf("backup: export the database's snapshot: %w", err)
	}
	if id == "" || strings.Trim(id, "0123456789ABCDEFabcdef-") != "" {
		stop()
		return nil, nil, fmt.Errorf("backup: the database exported a snapshot id %q this version cannot use", id)
	}
	cfg := db.DB().Pool.Config()
	cfg.MinConns = 0
	cfg.PrepareConn = func(ctx context.Context, c *pgx.Conn) (bool, error) {
		if c.PgConn().TxStatus() != 'I' {
			return false, nil
		}
		_, err := c.Exec(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT '"+id+"'")
		return err == nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("backup: %w", err)
	}
	pinned = storage.Postgres(db.DataDir(), &database.DB{Pool: pool, Where: db.Where(), State: pgstate.New(pool, pgstate.Options{})})
	var once sync.Once
	return pinned, func() {
		once.Do(func() {
			pool.Close()
			stop()
		})
	}, nil
}
