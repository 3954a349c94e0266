package pgstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// Channel is the notification channel every commit notifies, with the
// payload "<name> <revision>".
const Channel = "dsh_commits"

// write is one Create, Save or Update.
type write struct {
	name   string
	create bool
	// data and count are a Create's or Save's document and its element
	// count, sha its SHA-256; Update's come from mutate.
	data  []byte
	count int
	sha   string
	// mutate is Update's: the new document for the current one.
	mutate func(*store.Scene) ([]byte, error)
	// fenced writes need expected to be the current revision, unless
	// force; a save's bytes equal to the current ones pass the fence.
	fenced, force, save bool
	expected            int64
	requestID           string
	actor               store.Actor
	attr                store.Attribution
}

// current is the scene a write found, its row locked.
type current struct {
	meta store.Meta
	// data is the current bytes (nil when the write is refused by the
	// fence, which needs none); this Store's copy, never to be changed.
	data       []byte
	journalSeq int64
	// base, snapshot and chainBytes are the row's: what a delta of the
	// next revision against this one is chained to.
	base, snapshot *int64
	chainBytes     int64
	request        *store.Result // the answer to a remembered request id
	lockedAt       time.Time     // when the row lock was got (zero: phases not timed)
}

// Create makes a new scene at revision 1; an existing name (however
// close the race) is already_exists.
func (s *Store) Create(ctx context.Context, r store.CreateRequest) (*store.Result, error) {
	if err := store.CheckWrite(r.Name, r.Actor, r.RequestID, r.Attribution); err != nil {
		return nil, err
	}
	count, err := store.CheckDocument(s.codec, r.Data, s.maxBytes)
	if err != nil {
		return nil, err
	}
	return s.commit(ctx, &write{name: r.Name, create: true, data: r.Data, count: count, sha: sha256Hex(r.Data),
		requestID: r.RequestID, actor: r.Actor, attr: r.Attribution})
}

// Save replaces a scene's document over the expected revision (any, with
// Force); the current bytes pass the fence whatever the revision, as
// nothing can be lost (Unchanged).
func (s *Store) Save(ctx context.Context, r store.SaveRequest) (*store.Result, error) {
	if err := store.CheckWrite(r.Name, r.Actor, r.RequestID, r.Attribution); err != nil {
		return nil, err
	}
	count, err := store.CheckDocument(s.codec, r.Data, s.maxBytes)
	if err != nil {
		return nil, err
	}
	return s.commit(ctx, &write{name: r.Name, data: r.Data, count: count, sha: sha256Hex(r.Data), fenced: true, force: r.Force,
		save: true, expected: r.ExpectedRevision, requestID: r.RequestID, actor: r.Actor, attr: r.Attribution})
}

// Update commits what Mutate makes of the current scene, under its row
// lock. Mutate's error is returned as it is, and nothing is written.
func (s *Store) Update(ctx context.Context, r store.UpdateRequest) (*store.Result, error) {
	if err := store.CheckWrite(r.Name, r.Actor, r.RequestID, r.Attribution); err != nil {
		return nil, err
	}
	if r.Mutate == nil {
		return nil, store.NewError(store.CodeInvalidRequest, "UpdateRequest.Mutate is required", nil)
	}
	return s.commit(ctx, &write{name: r.Name, mutate: r.Mutate, fenced: !r.AnyRevision, expected: r.ExpectedRevision,
		requestID: r.RequestID, actor: r.Actor, attr: r.Attribution})
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// commit runs w's transaction, again on another connection while it
// fails on a broken pooled one before it did anything.
func (s *Store) commit(ctx context.Context, w *write) (*store.Result, error) {
	return attempts(ctx, s, w.name, "a pooled connection had broken; committing again", func() (*store.Result, bool, error) {
		return s.try(ctx, w)
	})
}

// attempts runs try, a write's transaction, and runs it again (logging
// why) while it reports that it did nothing and may go again, up to
// s.retries times more; after Close, or with ctx already done, it does
// not run it.
func attempts[T any](ctx context.Context, s *Store, name, why string, try func() (T, bool, error)) (T, error) {
	var zero T
	if s.closed.Load() {
		return zero, closedError()
	}
	if err := ctx.Err(); err != nil {
		return zero, store.NewError(store.CodeSceneBusy, "cancelled before start", err)
	}
	for attempt := 1; ; attempt++ {
		res, again, err := try()
		if !again || attempt > s.retries {
			return res, err
		}
		s.log.Info("pgstore: "+why, zap.String("name", name), zap.Error(err))
	}
}

// rollbackTimeout bounds the rollback of a failed commit (on a
// connection that broke, it returns at once).
const rollbackTimeout = 5 * time.Second

// rollback ends tx if it is still open (after Commit there is nothing
// to do), even when ctx is done, within rollbackTimeout.
func rollback(ctx context.Context, tx pgx.Tx) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rollbackTimeout)
	defer cancel()
	_ = tx.Rollback(rctx)
}

// try is one attempt at w's transaction. again says it failed on a
// broken connection before anything of it was done (or Mutate called).
//
// A failure anywhere leaves nothing: the transaction is rolled back (or,
// when the connection is gone, rolled back by the server), so a scene's
// revision, its superseded bytes, its request ids and its journal entry
// are all written or none is.
func (s *Store) try(ctx context.Context, w *write) (_ *store.Result, again bool, _ error) {
	early := func(err error, what string) (*store.Result, bool, error) {
		return nil, s.broken(ctx, err), s.fail(ctx, err, what)
	}
	began := s.phaseStart()
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return early(err, "begin a commit")
	}
	defer rollback(ctx, tx)
	locking := s.phaseEnd(store.PhaseBegin, began)
	var cur *current
	if !w.create {
		if cur, err = s.lock(ctx, tx, w, locking); err != nil {
			return early(err, "lock the scene")
		}
		if cur != nil {
			s.phaseEnd(store.PhaseRead, cur.lockedAt)
		}
		switch {
		case cur == nil:
			return nil, false, store.NotFound(w.name)
		case cur.request != nil:
			return cur.request, false, nil
		case w.fenced && !w.force && w.expected != cur.meta.Revision && !(w.save && w.sha == cur.meta.SHA256):
			return nil, false, store.Conflict(cur.meta, w.expected)
		}
	}
	data, count, sha := w.data, w.count, w.sha
	if w.mutate != nil {
		// cur.data is this Store's copy: Mutate reads it and never changes
		// it (store.UpdateRequest), so it is not copied for it.
		if data, err = w.mutate(&store.Scene{Meta: cur.meta, Data: cur.data}); err != nil {
			return nil, false, err
		}
		if count, err = store.CheckDocument(s.codec, data, s.maxBytes); err != nil {
			return nil, false, err
		}
		sha = sha256Hex(data)
	}
	if cur != nil && sha == cur.meta.SHA256 && int64(len(data)) == cur.meta.ByteLength {
		return &store.Result{Meta: cur.meta, SavedAt: cur.meta.UpdatedAt, Verified: true, Unchanged: true}, false, nil
	}

	now := s.now()
	m := store.Meta{Name: w.name, Revision: 1, SHA256: sha, ByteLength: int64(len(data)), ElementCount: count,
		UpdatedAt: now.UTC().Truncate(time.Millisecond), UpdatedBy: w.actor, UpdatedByName: w.attr.Name}
	var before []byte
	seq := int64(0)
	if cur != nil {
		m.Revision, m.PreviousRevision, m.PreviousSHA256 = cur.meta.Revision+1, cur.meta.Revision, cur.meta.SHA256
		before, seq = cur.data, cur.journalSeq
	}
	var entry *journal.Entry
	var images []byte
	if !s.journal.Disabled {
		seq++
		forced := w.save && w.force && cur != nil && w.expected != cur.meta.Revision
		if entry, images, err = s.entry(w, m, seq, forced, before, data, now); err != nil {
			return nil, false, err
		}
	}

	st := s.stored(cur, m.Revision, data, sha)
	b := &pgx.Batch{}
	row := []any{w.name, m.Revision, m.SHA256, st.data, count, m.UpdatedAt, string(w.actor), w.attr.Name,
		m.PreviousRevision, m.PreviousSHA256, s.node, seq, st.base, st.snapshot, st.chainBytes, m.ByteLength}
	if w.create {
		b.Queue(`INSERT INTO scenes (name, revision, sha256, data, element_count, updated_at, updated_by, updated_by_name,
			previous_revision, previous_sha256, node, journal_seq, base, snapshot, chain_bytes, byte_length)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
			ON CONFLICT (name) DO NOTHING RETURNING encode(sha256(data), 'hex')`, row...)
	} else {
		// The superseded revision's stored bytes (a delta, mostly) move to
		// revisions as they are. A copy of the current revision is there
		// already only when the scene was restored with one (a file
		// store's leftover backup): the row's bytes replace it.
		b.Queue(`INSERT INTO revisions (name, revision, data, committed_at, base, snapshot, sha256)
			SELECT name, revision, data, updated_at, base, snapshot, sha256 FROM scenes WHERE name = $1
			ON CONFLICT (name, revision, corrupt) DO UPDATE SET data = EXCLUDED.data, committed_at = EXCLUDED.committed_at,
				base = EXCLUDED.base, snapshot = EXCLUDED.snapshot, sha256 = EXCLUDED.sha256, kept = true`, w.name)
		b.Queue(`UPDATE scenes SET revision = $2, sha256 = $3, data = $4, element_count = $5, updated_at = $6, updated_by = $7,
			updated_by_name = $8, previous_revision = $9, previous_sha256 = $10, node = $11, journal_seq = $12,
			base = $13, snapshot = $14, chain_bytes = $15, byte_length = $16
			WHERE name = $1 RETURNING encode(sha256(data), 'hex')`, row...)
		if old := cur.meta.Revision - int64(s.keepRevs); s.keepRevs >= 0 && old >= 1 {
			b.Queue(dropRevisions, w.name, old)
		}
	}
	if w.requestID != "" {
		b.Queue(`INSERT INTO requests (name, request_id, revision, sha256, byte_length, element_count, at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, w.name, w.requestID, m.Revision, m.SHA256, m.ByteLength, count, m.UpdatedAt)
		b.Queue(`DELETE FROM requests WHERE name = $1 AND ord <=
			(SELECT ord FROM requests WHERE name = $1 ORDER BY ord DESC OFFSET $2 LIMIT 1)`, w.name, store.MaxRecentRequests)
	}
	if entry != nil {
		raw, err := json.Marshal(entry)
		if err != nil {
			return nil, false, store.NewError(store.CodeIOError, "encode the journal entry", err)
		}
		b.Queue(`INSERT INTO journal (name, seq, commit_id, revision, at, entry, images) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			w.name, seq, entry.Commit, m.Revision, m.UpdatedAt, raw, images)
	}
	b.Queue(`SELECT pg_notify('`+Channel+`', $1::text)`, w.name+" "+strconv.FormatInt(m.Revision, 10))

	writing := s.phaseStart()
	br := tx.SendBatch(ctx, b)
	after := b.Len() - 1 // the statements after the scene row's
	if !w.create {
		after--
	}
	if err := s.sendCommit(ctx, br, w, st.sha, after); err != nil {
		_ = br.Close()
		return nil, false, err
	}
	if err := br.Close(); err != nil {
		return nil, false, s.fail(ctx, err, "commit")
	}
	committing := s.phaseEnd(store.PhaseWrite, writing)
	if err := tx.Commit(ctx); err != nil {
		s.heads.drop(w.name)
		return nil, false, s.commitFailed(ctx, err, "read the scene, or retry with the same request id")
	}
	s.phaseEnd(store.PhaseCommit, committing)
	s.heads.put(w.name, m.Revision, sha, bytes.Clone(data)) // data is the caller's

	s.retain(ctx, w.name, m.Revision, seq)
	res := &store.Result{Meta: m, SavedAt: m.UpdatedAt, Verified: true}
	if entry != nil {
		res.Commit = entry.Commit
	}
	return res, false, nil
}

// storedBytes is how a commit stores its document: whole (base nil), or
// as a delta against the revision before it.
type storedBytes struct {
	data           []byte
	sha            string // data's SHA-256
	base, snapshot *int64
	chainBytes     int64
}

// stored is how revision rev, data with SHA-256 sha, is stored over cur
// (nil: a new scene): a delta against cur's bytes when the chain it
// extends stays within maxChain deltas and 1/chainShare of the
// document's size, else whole (a new snapshot).
func (s *Store) stored(cur *current, rev int64, data []byte, sha string) storedBytes {
	whole := storedBytes{data: data, sha: sha}
	if cur == nil || cur.data == nil {
		return whole
	}
	snap, chainBytes := cur.meta.Revision, int64(0)
	if cur.base != nil {
		if cur.snapshot == nil {
			return whole
		}
		snap, chainBytes = *cur.snapshot, cur.chainBytes
	}
	if rev-snap > maxChain {
		return whole
	}
	d := diff(cur.data, data)
	chainBytes += int64(len(d))
	if chainBytes*chainShare > int64(len(data)) {
		return whole
	}
	base := cur.meta.Revision
	return storedBytes{data: d, sha: sha256Hex(d), base: &base, snapshot: &snap, chainBytes: chainBytes}
}

// sendCommit reads the results of the commit's batch in the order they
// were queued: the scene row first (already_exists when a Create
// inserted nothing; io_error when the server's hash of the bytes it
// stored is not sha, that of the bytes sent), then after statements
// more.
func (s *Store) sendCommit(ctx context.Context, br pgx.BatchResults, w *write, sha string, after int) error {
	if !w.create {
		if _, err := br.Exec(); err != nil {
			return s.fail(ctx, err, "keep the superseded revision")
		}
	}
	var stored string
	err := br.QueryRow().Scan(&stored)
	switch {
	case w.create && errors.Is(err, pgx.ErrNoRows):
		return store.NewError(store.CodeAlreadyExists, "scene "+w.name+" already exists", nil).With("name", w.name)
	case err != nil:
		return s.fail(ctx, err, "write the scene")
	case stored != sha:
		return store.NewError(store.CodeIOError, "the database holds other bytes than were sent (sha256 "+stored+", not "+sha+")", nil).
			With("stage", "verify")
	}
	for range after {
		if _, err := br.Exec(); err != nil {
			return s.fail(ctx, err, "write the commit's records")
		}
	}
	return nil
}

// commitFailed is the error of a COMMIT that failed: as fail reports
// it, and, when the request may have reached the server before the
// connection broke, saying that the commit may have landed and, in
// hint, what the caller may do about it.
func (s *Store) commitFailed(ctx context.Context, err error, hint string) error {
	e := s.fail(ctx, err, "commit")
	var pe *pgconn.PgError
	if pgconn.SafeToRetry(err) || errors.As(err, &pe) {
		return e // never sent, or refused: nothing committed
	}
	var se *store.Error
	if errors.As(e, &se) {
		se.Message += " (the connection broke during the commit, which may have landed: " + hint + ")"
		se.With("outcome", "unknown")
	}
	return e
}

// lock locks w's scene row and reads it (nil: no such scene), telling
// of the wait for the lock since locking (PhaseLock; PhaseLockGaveUp
// when ctx ended it), then,
// by later statements, which see every commit before them, the lock
// holder's included (see the package doc): the scene's bytes, unless
// the fence refuses w (this Store's copy when the row is still at its
// revision, else rebuilt from the rows), and the remembered request w
// retries, if any.
func (s *Store) lock(ctx context.Context, tx pgx.Tx, w *write, locking time.Time) (*current, error) {
	have, _ := s.heads.get(w.name)
	b := &pgx.Batch{}
	b.Queue(`SELECT revision, sha256, coalesce(byte_length, octet_length(data)), element_count, updated_at, updated_by,
		updated_by_name, previous_revision, previous_sha256, journal_seq, base, snapshot, chain_bytes
		FROM scenes WHERE name = $1 FOR UPDATE`, w.name)
	b.Queue(headQuery(` AND ($4 OR revision = $5 OR sha256 = $6)`), w.name, have.rev, have.sha, !w.fenced || w.force, w.expected, w.sha)
	if w.requestID != "" {
		// With the id of its commit while the journal keeps its entry:
		// the newest of the scene's entries at its revision, found
		// walking the scene's journal back from its end (the remembered
		// requests are its last few commits).
		b.Queue(`SELECT r.revision, r.sha256, r.byte_length, r.element_count, r.at,
			coalesce((SELECT j.commit_id FROM journal j WHERE j.name = r.name AND j.revision = r.revision
				ORDER BY j.seq DESC LIMIT 1), '')
			FROM requests r WHERE r.name = $1 AND r.request_id = $2`,
			w.name, w.requestID)
	}
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	cur := &current{meta: store.Meta{Name: w.name}}
	var by string
	err := br.QueryRow().Scan(&cur.meta.Revision, &cur.meta.SHA256, &cur.meta.ByteLength, &cur.meta.ElementCount,
		&cur.meta.UpdatedAt, &by, &cur.meta.UpdatedByName, &cur.meta.PreviousRevision, &cur.meta.PreviousSHA256, &cur.journalSeq,
		&cur.base, &cur.snapshot, &cur.chainBytes)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, br.Close()
	}
	if err != nil {
		if ctx.Err() != nil {
			s.phaseEnd(store.PhaseLockGaveUp, locking)
		}
		return nil, err
	}
	cur.lockedAt = s.phaseEnd(store.PhaseLock, locking)
	cur.meta.UpdatedBy = store.Actor(by)
	cur.meta.UpdatedAt = cur.meta.UpdatedAt.UTC()
	rows, err := br.Query()
	if err != nil {
		return nil, err
	}
	h, err := scanHead(rows)
	switch {
	case err != nil:
		return nil, err
	case h != nil: // else refused by the fence: no bytes needed
		if cur.data, err = s.headBytes(w.name, cur.meta.Revision, cur.meta.SHA256, have, h); err != nil {
			return nil, err
		}
	}
	if w.requestID == "" {
		return cur, br.Close()
	}
	var m store.Meta
	var commit string
	err = br.QueryRow().Scan(&m.Revision, &m.SHA256, &m.ByteLength, &m.ElementCount, &m.UpdatedAt, &commit)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return cur, br.Close()
	case err != nil:
		return nil, err
	}
	// The answer of the commit that id made: the scene's current record
	// if it is still that commit.
	m.Name, m.UpdatedAt = w.name, m.UpdatedAt.UTC()
	if m.Revision == cur.meta.Revision && m.SHA256 == cur.meta.SHA256 {
		m = cur.meta
	}
	cur.request = &store.Result{Meta: m, Commit: commit, SavedAt: m.UpdatedAt, Verified: true, Duplicate: true}
	return cur, br.Close()
}

// entry is the journal entry of the commit m of w: its record and,
// through the codec's Differ, the changed elements and their
// before-images (as JSON; nil when there are none), kept or skipped by
// MaxImageBytes as the file store does.
func (s *Store) entry(w *write, m store.Meta, seq int64, forced bool, before, after []byte, now time.Time) (*journal.Entry, []byte, error) {
	e := &journal.Entry{Commit: store.NewCommitID(now), Seq: seq, Scene: w.name, Revision: m.Revision,
		PreviousRevision: m.PreviousRevision, SHA256: m.SHA256, ByteLength: m.ByteLength, ElementCount: m.ElementCount,
		At: store.FormatTime(now), Actor: string(w.actor), Name: w.attr.Name, Bot: w.attr.Bot, Person: w.attr.Person,
		PersonID: w.attr.PersonID, Client: w.attr.Client,
		Via: w.attr.Via, Note: w.attr.Note, RequestID: w.requestID, AccessID: w.attr.AccessID, Forced: forced, Undoes: w.attr.Undoes, Mode: w.attr.Mode,
		Images: journal.ImagesUnavailable}
	if s.differ == nil {
		return e, nil, nil
	}
	c, err := s.differ.Diff(before, after)
	if err != nil {
		s.log.Warn("journal: cannot tell what changed", zap.String("name", w.name), zap.Error(err))
		return e, nil, nil
	}
	raw, err := json.Marshal(e.Record(&c, s.journal.MaxImageBytes))
	if err != nil {
		return nil, nil, store.NewError(store.CodeIOError, "encode the journal images", err)
	}
	return e, raw, nil
}
