package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Restore writes a scene that is not in the database yet exactly as
// archived (RestoreWritten): its row with the archived record (times to
// the millisecond, as the file store keeps them; committed by no node of
// this database, so CommittedHere is false everywhere), its request ids
// in their order, its journal rows (the same commit ids, sequence
// numbers, every field and the images) and its kept revisions, corrupt
// copies included (kept, never served). No commit is made of it: the
// next one follows the archived revision and sequence number. The
// server's hash of every row's bytes it stored must be the archive's
// (io_error otherwise).
//
// The archive is checked first, as every backend checks one
// (SceneArchive.Check, with the Store's codec and MaxSceneBytes), and
// everything is written in one transaction, which also notifies the
// scene's name and revision on Channel (delivered at commit): a Restore
// that fails, or is cut short by a crash or a lost connection, leaves no
// row of the scene; one that commits leaves all of them.
//
// A scene of the name that is there already (however close the race:
// the primary key makes a second Restore wait for the first) is read in
// one snapshot, as Archive reads it, and compared with the archive as
// the file store's Restore compares (see archiveDiff): the same is
// RestoreUnchanged, and nothing is written; anything else is
// already_exists with details {name, differs, revision, sha256,
// archivedRevision, archivedSha256}, and nothing is changed. A journal
// commit id that another scene of the database has is already_exists
// with details {name, constraint}; text PostgreSQL cannot hold (a NUL
// character) is invalid_request.
func (s *Store) Restore(ctx context.Context, a *store.SceneArchive) (store.RestoreOutcome, error) {
	if err := a.Check(s.codec, s.maxBytes); err != nil {
		return "", err
	}
	rows, err := restoreRowsOf(a)
	if err != nil {
		return "", err
	}
	return attempts(ctx, s, a.Meta.Name, "a restore did nothing (a pooled connection had broken, or the scene in its way went); restoring again",
		func() (store.RestoreOutcome, bool, error) { return s.tryRestore(ctx, a, rows) })
}

// restoreRows are the values Restore writes that the archive holds in
// another form: each commit's entry and images as JSON and its time,
// each kept revision's commit time.
type restoreRows struct {
	entries, images [][]byte
	at              []time.Time
	// committedAt is, for each of the archive's revisions, when it was
	// committed: its journal entry's time, or (for one without an entry)
	// the archived record's, which retention by age counts from.
	committedAt []time.Time
	// journalSeq is the Seq of the newest entry (0: none).
	journalSeq int64
}

// restoreRowsOf encodes what a, a checked archive, writes: an entry
// whose time does not parse is invalid_request.
func restoreRowsOf(a *store.SceneArchive) (*restoreRows, error) {
	name := a.Meta.Name
	r := &restoreRows{}
	atOf := map[int64]time.Time{}
	for _, c := range a.Journal {
		e := &c.Entry
		raw, err := json.Marshal(e)
		if err != nil {
			return nil, store.NewError(store.CodeInvalidRequest, "archive of scene "+name+": commit "+e.Commit+" does not encode", err).
				With("name", name).With("commit", e.Commit)
		}
		var im []byte
		if c.Images != nil {
			if im, err = json.Marshal(c.Images); err != nil {
				return nil, store.NewError(store.CodeInvalidRequest, "archive of scene "+name+": the images of commit "+e.Commit+" do not encode", err).
					With("name", name).With("commit", e.Commit)
			}
		}
		at, err := time.Parse(time.RFC3339Nano, e.At)
		if err != nil {
			return nil, store.NewError(store.CodeInvalidRequest, fmt.Sprintf("archive of scene %s: commit %s has time %q", name, e.Commit, e.At), err).
				With("name", name).With("commit", e.Commit)
		}
		r.entries, r.images, r.at = append(r.entries, raw), append(r.images, im), append(r.at, at)
		atOf[e.Revision] = at
		r.journalSeq = e.Seq
	}
	for _, rev := range a.Revisions {
		at, ok := atOf[rev.Revision]
		if !ok {
			at = a.Meta.UpdatedAt
		}
		r.committedAt = append(r.committedAt, storedTime(at))
	}
	return r, nil
}

// tryRestore is one attempt at Restore. again says it did nothing and
// may go again: it failed on a broken connection before COMMIT (so the
// server rolled it back), or the scene it found in its way was gone
// when it read it.
func (s *Store) tryRestore(ctx context.Context, a *store.SceneArchive, r *restoreRows) (_ store.RestoreOutcome, again bool, _ error) {
	m, name := a.Meta, a.Meta.Name
	failed := func(err error, what string) (store.RestoreOutcome, bool, error) {
		return "", s.broken(ctx, err), s.restoreFailed(ctx, err, name, what)
	}
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return failed(err, "begin a restore")
	}
	defer rollback(ctx, tx)
	var stored string
	err = tx.QueryRow(ctx, `INSERT INTO scenes (name, revision, sha256, data, element_count, updated_at, updated_by, updated_by_name,
		previous_revision, previous_sha256, node, journal_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, '', $11)
		ON CONFLICT (name) DO NOTHING RETURNING encode(sha256(data), 'hex')`,
		name, m.Revision, m.SHA256, a.Data, m.ElementCount, storedTime(m.UpdatedAt), string(m.UpdatedBy), m.UpdatedByName,
		m.PreviousRevision, m.PreviousSHA256, r.journalSeq).Scan(&stored)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		rollback(ctx, tx) // its connection back before the comparison takes one
		return s.restoreOver(ctx, a)
	case err != nil:
		return failed(err, "write the scene")
	case stored != m.SHA256:
		return "", false, mismatch(name, "the scene", stored, m.SHA256)
	}

	b := &pgx.Batch{}
	for _, q := range a.Requests {
		b.Queue(`INSERT INTO requests (name, request_id, revision, sha256, byte_length, element_count, at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, name, q.ID, q.Revision, q.SHA256, q.ByteLength, q.ElementCount, storedTime(q.At))
	}
	for i, c := range a.Journal {
		b.Queue(`INSERT INTO journal (name, seq, commit_id, revision, at, entry, images) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			name, c.Entry.Seq, c.Entry.Commit, c.Entry.Revision, r.at[i], r.entries[i], r.images[i])
	}
	for i, v := range a.Revisions {
		b.Queue(`INSERT INTO revisions (name, revision, corrupt, data, committed_at) VALUES ($1, $2, $3, $4, $5)
			RETURNING encode(sha256(data), 'hex')`, name, v.Revision, v.Corrupt, v.Data, r.committedAt[i])
	}
	b.Queue(`SELECT pg_notify('`+Channel+`', $1::text)`, name+" "+strconv.FormatInt(m.Revision, 10))
	br := tx.SendBatch(ctx, b)
	for range len(a.Requests) + len(a.Journal) {
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return failed(err, "write the scene's request ids and journal")
		}
	}
	for _, v := range a.Revisions {
		if err := br.QueryRow().Scan(&stored); err != nil {
			_ = br.Close()
			return failed(err, "write the scene's kept revisions")
		}
		if stored != sha256Hex(v.Data) {
			_ = br.Close()
			return "", false, mismatch(name, "revision "+strconv.FormatInt(v.Revision, 10), stored, sha256Hex(v.Data))
		}
	}
	if _, err := br.Exec(); err != nil {
		_ = br.Close()
		return failed(err, "notify the restore")
	}
	if err := br.Close(); err != nil {
		return failed(err, "restore the scene")
	}
	if err := tx.Commit(ctx); err != nil {
		return "", false, s.commitFailed(ctx, err, "restore it again, which is then unchanged if it did")
	}
	s.log.Info("pgstore: restored scene from an archive", zap.String("name", name), zap.Int64("revision", m.Revision),
		zap.Int("journal", len(a.Journal)), zap.Int("revisions", len(a.Revisions)))
	return store.RestoreWritten, false, nil
}

// restoreOver is Restore of a scene that is there: compared, never
// written.
func (s *Store) restoreOver(ctx context.Context, a *store.SceneArchive) (store.RestoreOutcome, bool, error) {
	name := a.Meta.Name
	have, err := s.archive(ctx, name)
	switch {
	case store.CodeOf(err) == store.CodeNotFound:
		return "", true, err
	case err != nil:
		return "", s.broken(ctx, err), s.fail(ctx, err, "read the scene already there")
	}
	differs := archiveDiff(have, a)
	if len(differs) == 0 {
		return store.RestoreUnchanged, false, nil
	}
	return "", false, store.NewError(store.CodeAlreadyExists,
		fmt.Sprintf("scene %s already exists and is not the archived one (%v differ)", name, differs), nil).
		With("name", name).With("differs", differs).With("revision", have.Meta.Revision).With("sha256", have.Meta.SHA256).
		With("archivedRevision", a.Meta.Revision).With("archivedSha256", a.Meta.SHA256)
}

// restoreFailed is err, from the database while a Restore of scene name
// was to do what, as the Store reports it: as fail does, but a commit id
// another scene has is already_exists, and text the database cannot hold
// invalid_request.
func (s *Store) restoreFailed(ctx context.Context, err error, name, what string) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "23505" && pe.ConstraintName == "journal_commit_id_key":
			return store.NewError(store.CodeAlreadyExists, "a commit id of the archive of scene "+name+" is another scene's in the database", err).
				With("name", name).With("constraint", pe.ConstraintName)
		case pe.Code == "22P05" || pe.Code == "22021":
			return store.NewError(store.CodeInvalidRequest, "the archive of scene "+name+" holds text the database cannot keep (a NUL character?)", err).
				With("name", name)
		}
	}
	return s.fail(ctx, err, what)
}

// mismatch is the io_error of a row whose bytes the server hashed to
// stored, not want, the hash of those sent.
func mismatch(name, what, stored, want string) error {
	return store.NewError(store.CodeIOError, "the database holds other bytes of "+what+" than were sent (sha256 "+stored+", not "+want+")", nil).
		With("name", name).With("stage", "verify")
}
