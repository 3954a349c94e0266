package pgstate

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/dshgo/dsh/internal/statefile"
)

// doc is one row of state_docs.
type doc struct {
	b    *Backend
	name string
}

// version is a document's version: state_version's value at its last
// write, 0 while it does not exist.
type version int64

func (d *doc) Where() string { return "postgres:" + d.name }

// Fetch reads the version and, when it moved since since, the bytes: one
// single-row query either way.
func (d *doc) Fetch(ctx context.Context, since statefile.Version) ([]byte, statefile.Version, bool, error) {
	have, ok := since.(version)
	if !ok {
		have = -1
	}
	var v version
	var data []byte
	err := d.b.query(ctx, "read "+d.name, func(ctx context.Context) error {
		err := d.b.pool.QueryRow(ctx,
			`SELECT version, CASE WHEN version = $2 THEN NULL ELSE data END FROM state_docs WHERE name = $1 AND data IS NOT NULL`,
			d.name, int64(have)).Scan(&v, &data)
		if errors.Is(err, pgx.ErrNoRows) {
			v, data, err = 0, nil, nil
		}
		return err
	})
	switch {
	case err != nil:
		return nil, nil, false, err
	case v == have:
		return nil, v, false, nil
	case v != 0 && data == nil:
		data = []byte{} // an empty document exists
	}
	return data, v, true, nil
}

// Update locks the document's row (making it first when missing) for one
// transaction, runs change, and on a write stores the bytes under a new
// version and sends the change notice, both at commit.
func (d *doc) Update(ctx context.Context, change func(cur []byte) ([]byte, bool, error)) error {
	var changeErr error
	err := d.b.tx(ctx, "update "+d.name, func(ctx context.Context, tx pgx.Tx) (bool, error) {
		const lock = `SELECT data FROM state_docs WHERE name = $1 FOR UPDATE`
		var cur []byte
		err := tx.QueryRow(ctx, lock, d.name).Scan(&cur)
		if errors.Is(err, pgx.ErrNoRows) {
			// Missing: make the row to lock (data NULL, still missing);
			// another node doing the same at once waits for this one.
			if _, err := tx.Exec(ctx, `INSERT INTO state_docs (name, version, data) VALUES ($1, 0, NULL) ON CONFLICT (name) DO NOTHING`, d.name); err != nil {
				return false, err
			}
			err = tx.QueryRow(ctx, lock, d.name).Scan(&cur)
		}
		if err != nil {
			return false, err
		}
		next, write, err := change(cur)
		if err != nil {
			changeErr = err
			return false, nil
		}
		if !write {
			return false, nil
		}
		if next == nil {
			next = []byte{}
		}
		if _, err := tx.Exec(ctx, `UPDATE state_docs SET data = $2, version = nextval('state_version'), updated_at = now() WHERE name = $1`, d.name, next); err != nil {
			return false, err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, Channel, d.name); err != nil {
			return false, err
		}
		return true, nil
	})
	if changeErr != nil {
		return changeErr
	}
	return err
}
