package pgstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// metaCols are a scene row's record, in scanMeta's order.
const metaCols = `name, revision, sha256, coalesce(byte_length, octet_length(data)), element_count, updated_at, updated_by, updated_by_name,
	previous_revision, previous_sha256`

// scanMeta reads metaCols (and then extra) from r.
func scanMeta(r pgx.Row, extra ...any) (store.Meta, error) {
	var m store.Meta
	var by string
	err := r.Scan(append([]any{&m.Name, &m.Revision, &m.SHA256, &m.ByteLength, &m.ElementCount, &m.UpdatedAt, &by,
		&m.UpdatedByName, &m.PreviousRevision, &m.PreviousSHA256}, extra...)...)
	m.UpdatedBy, m.UpdatedAt = store.Actor(by), m.UpdatedAt.UTC()
	return m, err
}

// Read is the scene's committed bytes with their record. It takes no
// lock: a statement sees one committed state. The bytes come from this
// Store's copy when the row is still at its revision, else from the
// rows, rebuilt (from the copy when it is on the way) and checked.
func (s *Store) Read(ctx context.Context, name string) (*store.Scene, error) {
	if err := store.ValidName(name); err != nil {
		return nil, err
	}
	var sc store.Scene
	err := s.reading(ctx, "read the scene", func() error {
		have, _ := s.heads.get(name)
		rows, err := s.pool.Query(ctx, headQuery(""), name, have.rev, have.sha)
		if err != nil {
			return err
		}
		h, err := scanHead(rows)
		if err != nil {
			return err
		}
		if h == nil {
			return store.NotFound(name)
		}
		data, err := s.headBytes(name, h.meta.Revision, h.meta.SHA256, have, h)
		if err != nil {
			return err
		}
		sc.Meta, sc.Data = h.meta, bytes.Clone(data)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &sc, nil
}

// headQuery is the statement that gives scene $1's record and bytes to
// a reader who has those of revision $2 with SHA-256 $3 (0, ”: none),
// when cond (more of a WHERE clause on the row) holds: a first row of
// its record (metaCols), then k 0, its revision, base and stored bytes
// (NULL when it is the reader's revision), then a row (k 1) for each
// revision it is rebuilt through after the reader's (when that is on its
// chain) or from its snapshot. One statement: one snapshot. scanHead
// reads it.
func headQuery(cond string) string {
	hit := `(revision = $2 AND sha256 = $3)`
	return `WITH s AS (SELECT * FROM scenes WHERE name = $1` + cond + `)
	SELECT ` + metaCols + `, 0 AS k, revision AS rev, base, CASE WHEN ` + hit + ` THEN NULL ELSE data END FROM s
	UNION ALL
	SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1, r.revision, r.base, r.data
	FROM s JOIN revisions r ON r.name = s.name AND NOT r.corrupt
		AND r.revision >= CASE WHEN $2 >= s.snapshot AND $2 < s.revision THEN $2 + 1 ELSE s.snapshot END AND r.revision < s.revision
	WHERE s.base IS NOT NULL AND NOT (s.revision = $2 AND s.sha256 = $3)
	ORDER BY k, rev`
}

// head is what headQuery gives: the scene's record, its row's stored
// bytes (nil: the reader has them) and the chain to rebuild them.
type head struct {
	meta  store.Meta
	row   link
	chain []link
}

// scanHead reads headQuery's rows and closes them: nil when there are
// none.
func scanHead(rows pgx.Rows) (*head, error) {
	defer rows.Close()
	var h *head
	var k int
	for rows.Next() {
		if h == nil {
			h = &head{}
			m, err := scanMeta(rows, &k, &h.row.rev, &h.row.base, &h.row.data)
			if err != nil {
				return nil, err
			}
			h.meta = m
			continue
		}
		var l link
		var skip [10]any
		dst := make([]any, 0, 14)
		for i := range skip {
			dst = append(dst, &skip[i])
		}
		if err := rows.Scan(append(dst, &k, &l.rev, &l.base, &l.data)...); err != nil {
			return nil, err
		}
		h.chain = append(h.chain, l)
	}
	return h, rows.Err()
}

// headBytes is the bytes of name's revision rev (SHA-256 sha) from h,
// read by a reader who had have: have's when the row sent none, else
// rebuilt (and checked against the CRC-32C its delta carries, far
// cheaper than hashing the document again), and kept as this Store's
// copy.
func (s *Store) headBytes(name string, rev int64, sha string, have cachedHead, h *head) ([]byte, error) {
	if h.row.data == nil {
		if have.rev != rev || have.sha != sha {
			return nil, rebuildFailed(name, rev, errBadDelta)
		}
		return have.data, nil
	}
	data, err := rebuild(have.data, have.rev, h.chain, h.row) // checked by the delta's CRC-32C
	if err != nil {
		return nil, rebuildFailed(name, rev, err)
	}
	s.heads.put(name, rev, sha, data)
	return data, nil
}

// Head is the scene's record without its bytes.
func (s *Store) Head(ctx context.Context, name string) (store.Meta, error) {
	if err := store.ValidName(name); err != nil {
		return store.Meta{}, err
	}
	var m store.Meta
	err := s.reading(ctx, "read the scene", func() error {
		var err error
		m, err = scanMeta(s.pool.QueryRow(ctx, `SELECT `+metaCols+` FROM scenes WHERE name = $1`, name))
		if errors.Is(err, pgx.ErrNoRows) {
			return store.NotFound(name)
		}
		return err
	})
	return m, err
}

// ReadRevision is the bytes of a revision the store still keeps: the
// current one, or a superseded one whose journal entry retention has not
// dropped. Any other is not_found, and so is one kept only as corrupt
// (restored from a file store's .corrupt backup).
func (s *Store) ReadRevision(ctx context.Context, name string, rev int64) ([]byte, error) {
	if err := store.ValidName(name); err != nil {
		return nil, err
	}
	var data []byte
	err := s.reading(ctx, "read the revision", func() error {
		var err error
		data, err = readRevisionBytes(ctx, s.pool, name, rev)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.RevisionNotKept(name, rev)
		}
		return err
	})
	return data, err
}

// List is every scene's record, by name.
func (s *Store) List(ctx context.Context) ([]store.Summary, error) {
	var out []store.Summary
	err := s.reading(ctx, "list the scenes", func() error {
		rows, err := s.pool.Query(ctx, `SELECT `+metaCols+` FROM scenes ORDER BY name`)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.Summary, error) {
			m, err := scanMeta(r)
			return store.Summary{Meta: m, Valid: true}, err
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		out = []store.Summary{}
	}
	return out, nil
}

// CommittedHere reports whether the scene's current revision was
// committed by this Store (another node's commits are not).
func (s *Store) CommittedHere(ctx context.Context, name string) bool {
	if s.closed.Load() {
		return false
	}
	var here bool
	err := s.pool.QueryRow(ctx, `SELECT node = $2 FROM scenes WHERE name = $1`, name, s.node).Scan(&here)
	return err == nil && here
}

// logQuery selects a batch of journal rows, newest first: the filters
// of store.LogQuery that are columns (revision, time) and those jsonb
// tells (actor, element), which LogQuery.Matches then confirms.
const logQuery = `SELECT seq, entry FROM journal
	WHERE name = $1 AND seq < $2 AND revision <= $3
	  AND ($4::bigint = 0 OR revision >= $4) AND ($5::bigint = 0 OR revision <= $5)
	  AND ($6::timestamptz IS NULL OR at >= $6) AND ($7::timestamptz IS NULL OR at <= $7)
	  AND ($8::text = '' OR $8 IN (entry->>'actor', entry->>'name', entry->>'bot', entry->>'person'))
	  AND ($9::text = '' OR entry->'created' ? $9 OR entry->'updated' ? $9 OR entry->'deleted' ? $9 OR entry->'revived' ? $9)
	ORDER BY seq DESC LIMIT $10`

// Log is a page of the scene's journal, newest first: the entries that
// pass every filter of q (LogQuery.Matches), limit of them when there
// are that many, and a cursor (the last one's Seq and commit id) when
// there are more.
func (s *Store) Log(ctx context.Context, q store.LogQuery) (*store.LogPage, error) {
	if err := store.ValidName(q.Name); err != nil {
		return nil, err
	}
	limit, err := q.PageSize()
	if err != nil {
		return nil, err
	}
	pos, commit, err := store.ParseLogCursor(q.Cursor)
	if err != nil {
		return nil, err
	}
	// The time bounds to the millisecond entries are stamped with: the
	// same entries pass as by Matches.
	var since, until *time.Time
	if !q.Since.IsZero() {
		t := q.Since.Truncate(time.Millisecond)
		if t.Before(q.Since) {
			t = t.Add(time.Millisecond)
		}
		since = &t
	}
	if !q.Until.IsZero() {
		t := q.Until.Truncate(time.Millisecond)
		until = &t
	}
	var page *store.LogPage
	err = s.reading(ctx, "read the journal", func() error {
		page = &store.LogPage{Entries: []journal.Entry{}}
		var found bool
		err := s.pool.QueryRow(ctx, `SELECT revision, EXISTS (SELECT 1 FROM journal WHERE name = $1 AND seq = $2 AND commit_id = $3)
			FROM scenes WHERE name = $1`, q.Name, pos, commit).Scan(&page.Revision, &found)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return store.NotFound(q.Name)
		case err != nil:
			return err
		case q.Cursor != "" && !found:
			return store.CursorGone(commit)
		}
		before := int64(math.MaxInt64)
		if q.Cursor != "" {
			before = pos
		}
		var lastSeq int64
		for {
			type row struct {
				seq   int64
				entry []byte
			}
			rows, err := s.pool.Query(ctx, logQuery, q.Name, before, page.Revision, q.MinRevision, q.MaxRevision, since, until,
				q.Actor, q.Element, limit+1)
			if err != nil {
				return err
			}
			batch, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
				var x row
				return x, r.Scan(&x.seq, &x.entry)
			})
			if err != nil {
				return err
			}
			for _, x := range batch {
				before = x.seq
				var e journal.Entry
				if err := json.Unmarshal(x.entry, &e); err != nil {
					return store.NewError(store.CodeIOError, "a journal entry does not decode", err).With("seq", x.seq)
				}
				if !q.Matches(&e) {
					continue
				}
				if len(page.Entries) == limit {
					page.Next = store.LogCursor(lastSeq, page.Entries[limit-1].Commit)
					return nil
				}
				page.Entries = append(page.Entries, e)
				lastSeq = x.seq
			}
			if len(batch) <= limit {
				return nil
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return page, nil
}

// Commit is one journal entry with its images (nil when it kept none).
// An id not in the scene's journal is not_found.
func (s *Store) Commit(ctx context.Context, name, id string) (*journal.Entry, *journal.Images, error) {
	if err := store.ValidName(name); err != nil {
		return nil, nil, err
	}
	var entry *journal.Entry
	var images *journal.Images
	err := s.reading(ctx, "read the journal", func() error {
		var raw, im []byte
		err := s.pool.QueryRow(ctx, `SELECT j.entry, j.images FROM scenes s
			LEFT JOIN journal j ON j.name = s.name AND j.commit_id = $2 AND j.revision <= s.revision
			WHERE s.name = $1`, name, id).Scan(&raw, &im)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return store.NotFound(name)
		case err != nil:
			return err
		case raw == nil:
			return store.UnknownCommit(name, id)
		}
		entry, images = &journal.Entry{}, nil
		if err := json.Unmarshal(raw, entry); err != nil {
			return store.NewError(store.CodeIOError, "the journal entry does not decode", err).With("commit", id)
		}
		if im != nil {
			images = &journal.Images{}
			if err := json.Unmarshal(im, images); err != nil {
				return store.NewError(store.CodeIOError, "the journal images do not decode", err).With("commit", id)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return entry, images, nil
}
