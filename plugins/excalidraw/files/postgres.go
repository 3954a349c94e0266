package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// PGStore is the PostgreSQL backend: files kept as rows of the table
// file_blobs (migration 00004 of internal/pgdb), one per logical path,
// so that every node on the database serves every file.
//
// A row holds the bytes (bytea), the content type, size, sha256, and when
// it was created and last replaced. Bytes are bounded by the size cap
// (64 MiB at most), which is why they are a column and not a large
// object: a column goes with its row (a large object outlives a deleted
// row unless something unlinks it), is written in the row's transaction,
// and needs no separate permissions or dump options. The price is that a
// Put holds the whole body in memory before sending it, and a Get loads
// the row's bytes (both at most the cap).
//
// A Put is one transaction: the row is inserted, or locked and replaced
// whole, so a reader sees one write's bytes with its own type and hash.
// Of racing first writers exactly one inserts and reports created. A
// re-Put of the same bytes and type leaves the row (and its updated_at)
// as it is. A share link's file is inserted or refused, never replaced,
// and the share links' total is summed under a transaction-scoped
// advisory lock, so uploads on every node at once cannot pass it between
// them. A database that cannot be reached is store_unavailable (503,
// retryable), wrapping pgdb.ErrUnreachable.
type PGStore struct {
	pool     *pgxpool.Pool
	max      int64
	shareMax int64
}

// OpenPostgres is the PostgreSQL backend on pool, which must have been
// opened by pgdb.Open (so the table is there). Only cfg.MaxFileBytes is
// used. Close leaves the pool open: it is the caller's.
func OpenPostgres(pool *pgxpool.Pool, cfg Config) (*PGStore, error) {
	if pool == nil {
		return nil, errors.New("files: OpenPostgres needs a pool")
	}
	max, err := maxBytes(cfg)
	if err != nil {
		return nil, err
	}
	shareMax, err := maxShareBytes(cfg)
	if err != nil {
		return nil, err
	}
	return &PGStore{pool: pool, max: max, shareMax: shareMax}, nil
}

// Close does nothing: the pool is the caller's to close.
func (s *PGStore) Close() error { return nil }

// MaxFileBytes is the largest file Put accepts.
func (s *PGStore) MaxFileBytes() int64 { return s.max }

// Put stores the data read from body as the file at p, as Store.Put does:
// a declared size over the cap is refused before anything is read, the
// body is read to at most the cap plus one byte, and nothing is sent to
// the database unless all of it was read and is within the cap.
//
// A share link's file is refused before the body is read when one is
// already stored at p, or when its declared size does not fit under the
// share links' total; both are checked again in the write's transaction.
func (s *PGStore) Put(ctx context.Context, p Path, contentType string, size int64, body io.Reader) (Info, bool, error) {
	if p.Kind == ShareLinks {
		if size > s.max {
			return Info{}, false, TooLarge(size, s.max, false)
		}
		taken, used, err := s.shareLinkState(ctx, p)
		switch {
		case err != nil:
			return Info{}, false, err
		case taken:
			return Info{}, false, exists(p)
		case used+max(size, 0) > s.shareMax:
			return Info{}, false, StorageFull(used, max(size, 0), s.shareMax)
		}
	}
	data, sum, err := s.read(ctx, p, size, body)
	if err != nil {
		return Info{}, false, err
	}
	now := time.Now()
	if p.Kind == ShareLinks {
		info, err := s.createShareLink(ctx, p, ContentType(contentType), data, sum, now)
		return info, err == nil, err
	}
	info, created, _, err := s.write(ctx, p, ContentType(contentType), data, sum, now)
	return info, created, err
}

// Share links' rows are the paths from shareLinksFrom (inclusive) to
// shareLinksTo (exclusive): '0' follows '/'.
const (
	shareLinksFrom = shareLinksArea + "/"
	shareLinksTo   = shareLinksArea + "0"
)

// shareLinkLock is the second key of the advisory lock the share links'
// total is summed and added to under ("dsh" is the first, as pgstate's).
const shareLinkLock = "files:shareLinks"

// shareLinkState is whether a file is stored at p, and the data all
// share links' files hold.
func (s *PGStore) shareLinkState(ctx context.Context, p Path) (taken bool, used int64, err error) {
	err = s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM file_blobs WHERE path = $1),
  (SELECT coalesce(sum(size), 0)::bigint FROM file_blobs WHERE path >= $2 AND path < $3)`, p.String(), shareLinksFrom, shareLinksTo).
		Scan(&taken, &used)
	if err != nil {
		return false, 0, dbError(ctx, "read "+p.String(), err)
	}
	return taken, used, nil
}

// createShareLink inserts data as p's row, unless a row is there
// (already_exists) or it does not fit under the share links' total
// (insufficient_storage), in one transaction.
func (s *PGStore) createShareLink(ctx context.Context, p Path, ct string, data []byte, sum string, at time.Time) (Info, error) {
	at = at.Truncate(time.Microsecond)
	key := p.String()
	info := Info{Path: key, Size: int64(len(data)), ContentType: ct, SHA256: sum, ModTime: at}
	var refused error
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, advisoryClass, shareLinkLock); err != nil {
			return err
		}
		var used int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(sum(size), 0)::bigint FROM file_blobs WHERE path >= $1 AND path < $2`,
			shareLinksFrom, shareLinksTo).Scan(&used); err != nil {
			return err
		}
		if used+info.Size > s.shareMax {
			refused = StorageFull(used, info.Size, s.shareMax)
			return nil
		}
		tag, err := tx.Exec(ctx, `INSERT INTO file_blobs (path, content_type, size, sha256, data, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (path) DO NOTHING`, key, ct, info.Size, sum, data, at)
		if err == nil && tag.RowsAffected() == 0 {
			refused = exists(p)
		}
		return err
	})
	if err != nil {
		return Info{}, dbError(ctx, "store "+key, err)
	}
	if refused != nil {
		return Info{}, refused
	}
	return info, nil
}

// advisoryClass is the first key of this package's advisory locks:
// "dsh" in ASCII, as pgstate's.
const advisoryClass = 0x647368

// read reads body, bounded by the cap, and hashes it.
func (s *PGStore) read(ctx context.Context, p Path, size int64, body io.Reader) ([]byte, string, error) {
	if size > s.max {
		return nil, "", TooLarge(size, s.max, false)
	}
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	var buf bytes.Buffer
	if size > 0 {
		// Trust a declared size only so far: memory follows the bytes
		// that actually arrive.
		buf.Grow(int(min(size+1, 1<<20)))
	}
	n, err := buf.ReadFrom(io.LimitReader(ctxReader{ctx, body}, s.max+1))
	if err != nil {
		return nil, "", fmt.Errorf("files: write %s: %w", p, err)
	}
	if n > s.max {
		return nil, "", TooLarge(n, s.max, true)
	}
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(buf.Bytes())
	return buf.Bytes(), hex.EncodeToString(sum[:]), nil
}

// write stores data as p's row in one transaction, at (the time of the
// write, or the restored file's): inserted when there is none, else
// replaced unless it already holds these bytes and this type. changed
// reports whether a row was written.
func (s *PGStore) write(ctx context.Context, p Path, ct string, data []byte, sum string, at time.Time) (info Info, created, changed bool, err error) {
	at = at.Truncate(time.Microsecond) // what timestamptz keeps
	key := p.String()
	info = Info{Path: key, Size: int64(len(data)), ContentType: ct, SHA256: sum, ModTime: at}
	err = pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var oldSum, oldType string
		var oldSize int64
		var oldTime time.Time
		err := tx.QueryRow(ctx, `SELECT sha256, content_type, size, updated_at FROM file_blobs WHERE path = $1 FOR UPDATE`, key).
			Scan(&oldSum, &oldType, &oldSize, &oldTime)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			tag, err := tx.Exec(ctx, `INSERT INTO file_blobs (path, content_type, size, sha256, data, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (path) DO NOTHING`, key, ct, info.Size, sum, data, at)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 1 {
				created, changed = true, true
				return nil
			}
			// A racing first write inserted it meanwhile: replace it.
		case err != nil:
			return err
		case oldSum == sum && oldType == ct && oldSize == info.Size:
			info.ModTime = oldTime
			return nil
		}
		changed = true
		_, err = tx.Exec(ctx, `UPDATE file_blobs SET content_type = $2, size = $3, sha256 = $4, data = $5, updated_at = $6 WHERE path = $1`,
			key, ct, info.Size, sum, data, at)
		return err
	})
	if err != nil {
		return Info{}, false, false, dbError(ctx, "store "+key, err)
	}
	return info, created, changed, nil
}

// Get loads the file at p (its bytes included, at most the cap): not_found
// if there is none.
func (s *PGStore) Get(ctx context.Context, p Path) (*File, error) {
	var info Info
	var data []byte
	err := s.pool.QueryRow(ctx, `SELECT content_type, size, sha256, updated_at, data FROM file_blobs WHERE path = $1`, p.String()).
		Scan(&info.ContentType, &info.Size, &info.SHA256, &info.ModTime, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notFound(p)
	}
	if err != nil {
		return nil, dbError(ctx, "read "+p.String(), err)
	}
	info.Path = p.String()
	return &File{Info: info, data: bytes.NewReader(data)}, nil
}

// Stat is the Info of the file at p, without its bytes: not_found if
// there is none.
func (s *PGStore) Stat(ctx context.Context, p Path) (Info, error) {
	info := Info{Path: p.String()}
	err := s.pool.QueryRow(ctx, `SELECT content_type, size, sha256, updated_at FROM file_blobs WHERE path = $1`, info.Path).
		Scan(&info.ContentType, &info.Size, &info.SHA256, &info.ModTime)
	if errors.Is(err, pgx.ErrNoRows) {
		return Info{}, notFound(p)
	}
	if err != nil {
		return Info{}, dbError(ctx, "read "+info.Path, err)
	}
	return info, nil
}

// listPage is how many rows List reads per query.
const listPage = 500

// List yields the Info of every row, in order of path, a page of rows per
// query (so no connection is held while the caller works on one).
func (s *PGStore) List(ctx context.Context) iter.Seq2[Info, error] {
	return func(yield func(Info, error) bool) {
		after := ""
		for {
			page, err := s.page(ctx, after)
			if err != nil {
				yield(Info{}, err)
				return
			}
			for _, info := range page {
				if !yield(info, nil) {
					return
				}
			}
			if len(page) < listPage {
				return
			}
			after = page[len(page)-1].Path
		}
	}
}

// page reads the rows after the path after (all of them from "").
func (s *PGStore) page(ctx context.Context, after string) ([]Info, error) {
	rows, err := s.pool.Query(ctx, `SELECT path, content_type, size, sha256, updated_at FROM file_blobs
WHERE path > $1 ORDER BY path LIMIT $2`, after, listPage)
	if err != nil {
		return nil, dbError(ctx, "list", err)
	}
	page, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Info, error) {
		var info Info
		err := r.Scan(&info.Path, &info.ContentType, &info.Size, &info.SHA256, &info.ModTime)
		return info, err
	})
	if err != nil {
		return nil, dbError(ctx, "list", err)
	}
	return page, nil
}

// Restore stores body as the file at info.Path with info's content type
// and modification time (see Backend.Restore), in one transaction as Put.
func (s *PGStore) Restore(ctx context.Context, info Info, body io.Reader) (bool, error) {
	p, err := ParsePath(info.Path)
	if err != nil {
		return false, err
	}
	if same, err := holds(ctx, s, p, info); err != nil || same {
		return false, err
	}
	data, sum, err := s.read(ctx, p, info.Size, body)
	if err != nil {
		return false, err
	}
	if int64(len(data)) != info.Size || sum != info.SHA256 {
		return false, mismatch(p)
	}
	_, _, changed, err := s.write(ctx, p, ContentType(info.ContentType), data, sum, info.ModTime)
	return changed, err
}

// dbError is a failed query as the file service reports it: the
// context's own error when it ended, store_unavailable (503, retryable)
// when the server could not be reached, else io_error.
func dbError(ctx context.Context, what string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("files: %s: %w", what, ctxErr)
	}
	if pgdb.Unreachable(err) {
		return storeUnavailable(what, err)
	}
	return &sceneerr.Error{Code: sceneerr.IOError, Message: "the file store's database failed to " + what, Err: err}
}
