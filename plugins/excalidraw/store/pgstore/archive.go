package pgstore

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

var _ store.Archiver = (*Store)(nil)

// Archive is everything the database keeps of a scene (store.Archiver):
// its row's record and bytes, its remembered request ids in the order
// they were remembered, its journal entries up to its revision with
// their images, oldest first, and its kept revisions, oldest first (a
// revision's valid copy before a corrupt one), as the file store's
// Archive gives them. It is read in one REPEATABLE READ, read-only
// transaction, so every part is of one moment, and takes no lock:
// writers go on meanwhile. Bytes the row's record does not describe are
// io_error; no such scene, not_found.
func (s *Store) Archive(ctx context.Context, name string) (*store.SceneArchive, error) {
	if err := store.ValidName(name); err != nil {
		return nil, err
	}
	var a *store.SceneArchive
	err := s.reading(ctx, "archive the scene", func() error {
		var err error
		a, err = s.archive(ctx, name)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// archive is one attempt at Archive, its errors as the database gave
// them (but not_found and io_error for what it found wrong).
func (s *Store) archive(ctx context.Context, name string) (*store.SceneArchive, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer rollback(ctx, tx)
	b := &pgx.Batch{}
	b.Queue(`SELECT `+metaCols+`, data, base FROM scenes WHERE name = $1`, name)
	b.Queue(`SELECT request_id, revision, sha256, byte_length, element_count, at FROM requests WHERE name = $1 ORDER BY ord`, name)
	b.Queue(`SELECT j.seq, j.entry, j.images FROM journal j JOIN scenes s ON s.name = j.name AND j.revision <= s.revision
		WHERE j.name = $1 ORDER BY j.seq`, name)
	b.Queue(`SELECT revision, corrupt, data, base, kept, sha256 FROM revisions WHERE name = $1 ORDER BY revision, corrupt`, name)
	br := tx.SendBatch(ctx, b)
	defer br.Close()

	a := &store.SceneArchive{Revisions: []store.ArchivedRevision{}}
	var headBase *int64
	a.Meta, err = scanMeta(br.QueryRow(), &a.Data, &headBase)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, store.NotFound(name)
	case err != nil:
		return nil, err
	}

	rows, err := br.Query()
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var r store.RequestRecord
		if err := rows.Scan(&r.ID, &r.Revision, &r.SHA256, &r.ByteLength, &r.ElementCount, &r.At); err != nil {
			rows.Close()
			return nil, err
		}
		r.At = r.At.UTC()
		a.Requests = append(a.Requests, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}

	if rows, err = br.Query(); err != nil {
		return nil, err
	}
	for rows.Next() {
		var seq int64
		var raw, im []byte
		if err := rows.Scan(&seq, &raw, &im); err != nil {
			rows.Close()
			return nil, err
		}
		c, err := decodeCommit(raw, im)
		if err != nil {
			rows.Close()
			return nil, err.With("name", name).With("seq", seq)
		}
		a.Journal = append(a.Journal, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}

	// The revisions, each rebuilt through the ones before it; those
	// retention hid are only links.
	if rows, err = br.Query(); err != nil {
		return nil, err
	}
	var prev []byte
	prevRev := int64(-1)
	for rows.Next() {
		var r store.ArchivedRevision
		var base *int64
		var kept bool
		var sha *string
		if err := rows.Scan(&r.Revision, &r.Corrupt, &r.Data, &base, &kept, &sha); err != nil {
			rows.Close()
			return nil, err
		}
		if !r.Corrupt {
			if r.Data, err = rebuild(prev, prevRev, nil, link{rev: r.Revision, base: base, data: r.Data}); err != nil {
				rows.Close()
				return nil, rebuildFailed(name, r.Revision, err)
			}
			if base != nil && sha != nil && sha256Hex(r.Data) != *sha {
				rows.Close()
				return nil, rebuildFailed(name, r.Revision, nil)
			}
			prev, prevRev = r.Data, r.Revision
		}
		if kept {
			a.Revisions = append(a.Revisions, r)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if a.Data, err = rebuild(prev, prevRev, nil, link{rev: a.Meta.Revision, base: headBase, data: a.Data}); err != nil {
		return nil, rebuildFailed(name, a.Meta.Revision, err)
	}
	if sha256Hex(a.Data) != a.Meta.SHA256 {
		return nil, store.NewError(store.CodeIOError, "the database holds other bytes for scene "+name+" than its record describes", nil).
			With("name", name).With("sha256", a.Meta.SHA256)
	}
	return a, br.Close()
}

// decodeCommit is a journal row's entry and images (raw, im: nil when
// the row has none).
func decodeCommit(raw, im []byte) (store.ArchivedCommit, *store.Error) {
	var c store.ArchivedCommit
	if err := json.Unmarshal(raw, &c.Entry); err != nil {
		return c, store.NewError(store.CodeIOError, "a journal entry does not decode", err)
	}
	if im != nil {
		c.Images = &journal.Images{}
		if err := json.Unmarshal(im, c.Images); err != nil {
			return c, store.NewError(store.CodeIOError, "the images of a journal entry do not decode", err).With("commit", c.Entry.Commit)
		}
	}
	return c, nil
}

// archiveDiff names the parts in which have, a scene as the database
// holds it, is not want, with the names and the comparisons of the file
// store's Restore: "revision"; "sha256" (the hash or the bytes); "meta"
// (the rest of the record, times to the millisecond, as store.FormatTime
// writes them); "requests" (the remembered ids in order, each's record);
// "journal" (each entry and its images as JSON, as a journal frame holds
// them); "revisions" (the kept revisions, in any order). None: have is
// want.
func archiveDiff(have, want *store.SceneArchive) []string {
	var out []string
	h, w := have.Meta, want.Meta
	if h.Revision != w.Revision {
		out = append(out, "revision")
	}
	if h.SHA256 != w.SHA256 || !bytes.Equal(have.Data, want.Data) {
		out = append(out, "sha256")
	}
	h.Revision, w.Revision, h.SHA256, w.SHA256 = 0, 0, "", ""
	h.UpdatedAt, w.UpdatedAt = storedTime(h.UpdatedAt), storedTime(w.UpdatedAt)
	if h != w {
		out = append(out, "meta")
	}
	if !slices.EqualFunc(have.Requests, want.Requests, func(x, y store.RequestRecord) bool {
		x.At, y.At = storedTime(x.At), storedTime(y.At)
		return x == y
	}) {
		out = append(out, "requests")
	}
	if !slices.EqualFunc(have.Journal, want.Journal, func(x, y store.ArchivedCommit) bool {
		return sameJSON(&x.Entry, &y.Entry) && (x.Images == nil) == (y.Images == nil) && sameJSON(x.Images, y.Images)
	}) {
		out = append(out, "journal")
	}
	if !slices.EqualFunc(sortedRevisions(have.Revisions), sortedRevisions(want.Revisions), func(x, y store.ArchivedRevision) bool {
		return x.Revision == y.Revision && x.Corrupt == y.Corrupt && bytes.Equal(x.Data, y.Data)
	}) {
		out = append(out, "revisions")
	}
	return out
}

// storedTime is t as the database keeps a scene's times: UTC, to the
// millisecond, as store.FormatTime writes them (and the file store keeps
// them), so that an archive passed between the two compares equal.
func storedTime(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

// sameJSON reports whether x and y encode alike.
func sameJSON(x, y any) bool {
	jx, errx := json.Marshal(x)
	jy, erry := json.Marshal(y)
	return errx == nil && erry == nil && bytes.Equal(jx, jy)
}

// sortedRevisions is a copy of rs, oldest first, a revision's valid copy
// before its corrupt one (the order Archive gives them in).
func sortedRevisions(rs []store.ArchivedRevision) []store.ArchivedRevision {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b store.ArchivedRevision) int {
		if c := cmp.Compare(a.Revision, b.Revision); c != 0 {
			return c
		}
		switch {
		case a.Corrupt == b.Corrupt:
			return 0
		case a.Corrupt:
			return 1
		}
		return -1
	})
	return rs
}
