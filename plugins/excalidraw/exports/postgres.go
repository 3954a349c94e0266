package exports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// OpenPostgres is a Store keeping exports as rows of the table
// export_blobs (migration 00004 of internal/pgdb) on pool, which must have
// been opened by pgdb.Open; cfg.Dir is not used. Every node configured
// with the same cfg.Secret opens every other node's links. The pool stays
// the caller's.
func OpenPostgres(pool *pgxpool.Pool, cfg Config) (*Store, error) {
	if pool == nil {
		return nil, errors.New("exports: OpenPostgres needs a pool")
	}
	return newStore(cfg, &pgBackend{pool: pool}, ", and other nodes refuse them")
}

// pgBackend keeps each export as a row: id, format, size, bytes and when
// it was created.
type pgBackend struct{ pool *pgxpool.Pool }

// put is one statement: the row is there whole or not at all.
func (b *pgBackend) put(ctx context.Context, id string, data []byte, at time.Time) error {
	_, err := b.pool.Exec(ctx, `INSERT INTO export_blobs (id, format, size, data, created_at) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (id) DO UPDATE SET format = EXCLUDED.format, size = EXCLUDED.size, data = EXCLUDED.data, created_at = EXCLUDED.created_at`,
		id, format(id), len(data), data, at)
	return dbError(ctx, "store the export", err)
}

// open loads the row's bytes.
func (b *pgBackend) open(ctx context.Context, id string) (*File, error) {
	e := Entry{ID: id, Format: format(id)}
	var data []byte
	err := b.pool.QueryRow(ctx, `SELECT size, created_at, data FROM export_blobs WHERE id = $1`, id).Scan(&e.Size, &e.Created, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNoLongerKept
	}
	if err != nil {
		return nil, dbError(ctx, "read the export", err)
	}
	return &File{Entry: e, r: bytes.NewReader(data)}, nil
}

func (b *pgBackend) sweep(ctx context.Context, cutoff time.Time) (int, error) {
	tag, err := b.pool.Exec(ctx, `DELETE FROM export_blobs WHERE created_at < $1`, cutoff)
	if err != nil {
		return 0, dbError(ctx, "sweep old exports", err)
	}
	return int(tag.RowsAffected()), nil
}

func (b *pgBackend) list(ctx context.Context) ([]Entry, error) {
	rows, err := b.pool.Query(ctx, `SELECT id, format, size, created_at FROM export_blobs ORDER BY id`)
	if err != nil {
		return nil, dbError(ctx, "list the exports", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Entry, error) {
		var e Entry
		err := r.Scan(&e.ID, &e.Format, &e.Size, &e.Created)
		return e, err
	})
	if err != nil {
		return nil, dbError(ctx, "list the exports", err)
	}
	return out, nil
}

// dbError is a failed query (nil for none): the context's own error when
// it ended, store_unavailable (503, retryable) when the server could not
// be reached, else io_error.
func dbError(ctx context.Context, what string, err error) error {
	if err == nil {
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("exports: %s: %w", what, ctxErr)
	}
	if pgdb.Unreachable(err) {
		return apierr.StoreUnavailable("the exports' database cannot be reached; nothing was done, try again shortly",
			fmt.Errorf("exports: %s: %w: %w", what, pgdb.ErrUnreachable, err))
	}
	return &sceneerr.Error{Code: sceneerr.IOError, Message: "the exports' database failed to " + what, Err: err}
}
