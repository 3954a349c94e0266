// Package pgstore keeps scenes in PostgreSQL: a store.Backend whose
// revisions, request ids and journal are rows written in one transaction
// per commit, the scene's row locked for the fence (work in progress:
// issue 16).
package pgstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// keepRequests is how many request ids a scene remembers (the contract's
// last 32).
const keepRequests = 32

const schema = `
CREATE TABLE IF NOT EXISTS scenes (
  name text PRIMARY KEY,
  revision bigint NOT NULL,
  sha256 text NOT NULL,
  data bytea NOT NULL,
  element_count integer NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL,
  updated_by_name text NOT NULL DEFAULT '',
  previous_revision bigint NOT NULL DEFAULT 0,
  previous_sha256 text NOT NULL DEFAULT '',
  node text NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS revisions (
  name text NOT NULL, revision bigint NOT NULL, data bytea NOT NULL,
  PRIMARY KEY (name, revision)
);
CREATE TABLE IF NOT EXISTS requests (
  name text NOT NULL, request_id text NOT NULL, revision bigint NOT NULL, sha256 text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (name, request_id)
);
CREATE TABLE IF NOT EXISTS journal (
  name text NOT NULL, seq bigint NOT NULL, commit_id text NOT NULL UNIQUE, entry jsonb NOT NULL,
  PRIMARY KEY (name, seq)
);`

// Options configure a Store.
type Options struct {
	DSN   string
	Codec store.Codec
	Now   func() time.Time
}

// Store is the PostgreSQL backend.
type Store struct {
	pool  *pgxpool.Pool
	codec store.Codec
	now   func() time.Time
	node  string // this process, for CommittedHere
}

var _ store.Backend = (*Store)(nil)

// Open connects and makes sure the schema is there.
func Open(ctx context.Context, o Options) (*Store, error) {
	if o.Codec == nil {
		return nil, errors.New("pgstore: a codec is required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	pool, err := pgxpool.New(ctx, o.DSN)
	if err != nil {
		return nil, fmt.Errorf("pgstore: %w", err)
	}
	if _, err := pool.Exec(ctx, schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("pgstore: schema: %w", err)
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return &Store{pool: pool, codec: o.Codec, now: o.Now, node: hex.EncodeToString(b[:])}, nil
}

// Close closes the pool.
func (s *Store) Close() error { s.pool.Close(); return nil }

func fail(code, format string, args ...any) *store.Error {
	return &store.Error{Code: code, Status: sceneerr.Code(code).Status(), Message: fmt.Sprintf(format, args...)}
}

func ioError(err error) *store.Error {
	return &store.Error{Code: store.CodeIOError, Status: 500, Message: "the database failed: " + err.Error(), Err: err}
}

type row struct {
	meta store.Meta
	data []byte
	node string
}

const cols = `name, revision, sha256, data, element_count, updated_at, updated_by, updated_by_name, previous_revision, previous_sha256, node`

func scan(r pgx.Row) (*row, error) {
	var x row
	var by string
	err := r.Scan(&x.meta.Name, &x.meta.Revision, &x.meta.SHA256, &x.data, &x.meta.ElementCount, &x.meta.UpdatedAt, &by,
		&x.meta.UpdatedByName, &x.meta.PreviousRevision, &x.meta.PreviousSHA256, &x.node)
	if err != nil {
		return nil, err
	}
	x.meta.UpdatedBy = store.Actor(by)
	x.meta.ByteLength = int64(len(x.data))
	x.meta.UpdatedAt = x.meta.UpdatedAt.UTC()
	return &x, nil
}

func (s *Store) get(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, name string, lock bool) (*row, error) {
	sql := `SELECT ` + cols + ` FROM scenes WHERE name = $1`
	if lock {
		sql += ` FOR UPDATE`
	}
	x, err := scan(q.QueryRow(ctx, sql, name))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, ioError(err)
	}
	return x, nil
}

// write is every commit: the row locked, a remembered request answered
// again, the fence, the new bytes, then scene, revision, request and
// journal rows in one transaction.
func (s *Store) write(ctx context.Context, name string, create bool, expected int64, fenced bool, force bool, requestID string,
	actor store.Actor, attr store.Attribution, produce func(cur *store.Scene) ([]byte, error)) (*store.Result, error) {
	if err := store.ValidName(name); err != nil {
		return nil, err
	}
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return nil, ioError(err)
	}
	defer func() { _ = tx.Rollback(context.Background()) }()
	cur, err := s.get(ctx, tx, name, true)
	if err != nil {
		return nil, err
	}
	switch {
	case create && cur != nil:
		return nil, fail(store.CodeAlreadyExists, "scene %s already exists", name)
	case !create && cur == nil:
		return nil, store.NotFound(name)
	}
	if requestID != "" && cur != nil {
		var rev int64
		var sha string
		err := tx.QueryRow(ctx, `SELECT revision, sha256 FROM requests WHERE name = $1 AND request_id = $2`, name, requestID).Scan(&rev, &sha)
		if err == nil {
			m := cur.meta
			m.Revision, m.SHA256 = rev, sha
			return &store.Result{Meta: m, SavedAt: cur.meta.UpdatedAt, Verified: true, Duplicate: true}, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return nil, ioError(err)
		}
	}
	if fenced && !force && cur != nil && cur.meta.Revision != expected {
		e := fail(store.CodeRevisionConflict, "scene %s is at revision %d, not %d", name, cur.meta.Revision, expected)
		e.Details = map[string]any{"currentRevision": cur.meta.Revision, "currentSha256": cur.meta.SHA256,
			"expectedRevision": expected, "updatedAt": cur.meta.UpdatedAt.Format(time.RFC3339Nano)}
		return nil, e
	}
	var curScene *store.Scene
	if cur != nil {
		curScene = &store.Scene{Meta: cur.meta, Data: cur.data}
	}
	data, err := produce(curScene)
	if err != nil {
		return nil, err
	}
	if cur != nil && bytes.Equal(data, cur.data) {
		return &store.Result{Meta: cur.meta, SavedAt: cur.meta.UpdatedAt, Verified: true, Unchanged: true}, nil
	}
	count, err := s.codec.Inspect(data)
	if err != nil {
		return nil, &store.Error{Code: store.CodeInvalidScene, Status: 422, Message: "the new document is not a scene: " + err.Error(), Err: err}
	}
	sum := sha256.Sum256(data)
	m := store.Meta{Name: name, Revision: 1, SHA256: hex.EncodeToString(sum[:]), ByteLength: int64(len(data)), ElementCount: count,
		UpdatedAt: s.now().UTC().Truncate(time.Millisecond), UpdatedBy: actor, UpdatedByName: attr.Name}
	if cur != nil {
		m.Revision, m.PreviousRevision, m.PreviousSHA256 = cur.meta.Revision+1, cur.meta.Revision, cur.meta.SHA256
	}
	if _, err := tx.Exec(ctx, `INSERT INTO scenes (`+cols+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)
		ON CONFLICT (name) DO UPDATE SET revision=$2, sha256=$3, data=$4, element_count=$5, updated_at=$6, updated_by=$7,
		updated_by_name=$8, previous_revision=$9, previous_sha256=$10, node=$11`,
		name, m.Revision, m.SHA256, data, count, m.UpdatedAt, string(actor), attr.Name, m.PreviousRevision, m.PreviousSHA256, s.node); err != nil {
		return nil, ioError(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO revisions (name, revision, data) VALUES ($1, $2, $3)`, name, m.Revision, data); err != nil {
		return nil, ioError(err)
	}
	if requestID != "" {
		if _, err := tx.Exec(ctx, `INSERT INTO requests (name, request_id, revision, sha256, at) VALUES ($1,$2,$3,$4,$5)`,
			name, requestID, m.Revision, m.SHA256, m.UpdatedAt); err != nil {
			return nil, ioError(err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM requests WHERE name = $1 AND request_id NOT IN
			(SELECT request_id FROM requests WHERE name = $1 ORDER BY revision DESC LIMIT $2)`, name, keepRequests); err != nil {
			return nil, ioError(err)
		}
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	e := journal.Entry{Commit: fmt.Sprintf("%013X%s", m.UpdatedAt.UnixMilli(), hex.EncodeToString(b[:])), Seq: m.Revision, Scene: name,
		Revision: m.Revision, PreviousRevision: m.PreviousRevision, SHA256: m.SHA256, ByteLength: m.ByteLength, ElementCount: count,
		At: m.UpdatedAt.Format("2006-01-02T15:04:05.000Z"), Actor: string(actor), Name: attr.Name, Bot: attr.Bot, Person: attr.Person,
		Via: attr.Via, Note: attr.Note, RequestID: requestID, Forced: force && fenced, Undoes: attr.Undoes, Mode: attr.Mode,
		Images: journal.ImagesUnavailable}
	entry, err := json.Marshal(e)
	if err != nil {
		return nil, ioError(err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO journal (name, seq, commit_id, entry) VALUES ($1, $2, $3, $4)`, name, e.Seq, e.Commit, entry); err != nil {
		return nil, ioError(err)
	}
	var stored string
	if err := tx.QueryRow(ctx, `SELECT sha256 FROM scenes WHERE name = $1`, name).Scan(&stored); err != nil {
		return nil, ioError(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, ioError(err)
	}
	return &store.Result{Meta: m, SavedAt: m.UpdatedAt, Verified: stored == m.SHA256}, nil
}

// Create makes a new scene at revision 1.
func (s *Store) Create(ctx context.Context, r store.CreateRequest) (*store.Result, error) {
	return s.write(ctx, r.Name, true, 0, false, false, r.RequestID, r.Actor, r.Attribution,
		func(*store.Scene) ([]byte, error) { return r.Data, nil })
}

// Save replaces a scene's bytes over the expected revision (or any, with
// Force).
func (s *Store) Save(ctx context.Context, r store.SaveRequest) (*store.Result, error) {
	return s.write(ctx, r.Name, false, r.ExpectedRevision, true, r.Force, r.RequestID, r.Actor, r.Attribution,
		func(*store.Scene) ([]byte, error) { return r.Data, nil })
}

// Update commits what Mutate makes of the current scene, under its lock.
func (s *Store) Update(ctx context.Context, r store.UpdateRequest) (*store.Result, error) {
	return s.write(ctx, r.Name, false, r.ExpectedRevision, !r.AnyRevision, false, r.RequestID, r.Actor, r.Attribution, r.Mutate)
}

// Read is the committed scene.
func (s *Store) Read(ctx context.Context, name string) (*store.Scene, error) {
	if err := store.ValidName(name); err != nil {
		return nil, err
	}
	x, err := s.get(ctx, s.pool, name, false)
	if err != nil {
		return nil, err
	}
	if x == nil {
		return nil, store.NotFound(name)
	}
	return &store.Scene{Meta: x.meta, Data: x.data}, nil
}

// Head is the scene's revision record.
func (s *Store) Head(ctx context.Context, name string) (store.Meta, error) {
	sc, err := s.Read(ctx, name)
	if err != nil {
		return store.Meta{}, err
	}
	return sc.Meta, nil
}

// ReadRevision is the bytes of an earlier revision.
func (s *Store) ReadRevision(ctx context.Context, name string, rev int64) ([]byte, error) {
	if err := store.ValidName(name); err != nil {
		return nil, err
	}
	var data []byte
	err := s.pool.QueryRow(ctx, `SELECT data FROM revisions WHERE name = $1 AND revision = $2`, name, rev).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fail(store.CodeNotFound, "revision %d of scene %s is not kept", rev, name)
	}
	if err != nil {
		return nil, ioError(err)
	}
	return data, nil
}

// List is every scene's record.
func (s *Store) List(ctx context.Context) ([]store.Summary, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+cols+` FROM scenes ORDER BY name`)
	if err != nil {
		return nil, ioError(err)
	}
	defer rows.Close()
	out := []store.Summary{}
	for rows.Next() {
		x, err := scan(rows)
		if err != nil {
			return nil, ioError(err)
		}
		out = append(out, store.Summary{Meta: x.meta, Valid: true})
	}
	return out, rows.Err()
}

// Log is the scene's journal, newest first (filters and cursors: to do).
func (s *Store) Log(ctx context.Context, q store.LogQuery) (*store.LogPage, error) {
	head, err := s.Head(ctx, q.Name)
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = store.DefaultLogLimit
	}
	rows, err := s.pool.Query(ctx, `SELECT entry FROM journal WHERE name = $1 ORDER BY seq DESC LIMIT $2`, q.Name, limit)
	if err != nil {
		return nil, ioError(err)
	}
	defer rows.Close()
	page := &store.LogPage{Revision: head.Revision}
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			return nil, ioError(err)
		}
		var e journal.Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, ioError(err)
		}
		page.Entries = append(page.Entries, e)
	}
	return page, rows.Err()
}

// Commit is one journal entry (its before-images: to do).
func (s *Store) Commit(ctx context.Context, name, id string) (*journal.Entry, *journal.Images, error) {
	if err := store.ValidName(name); err != nil {
		return nil, nil, err
	}
	var raw []byte
	err := s.pool.QueryRow(ctx, `SELECT entry FROM journal WHERE name = $1 AND commit_id = $2`, name, id).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, fail(store.CodeNotFound, "commit %q is not in the journal of %s", id, name)
	}
	if err != nil {
		return nil, nil, ioError(err)
	}
	var e journal.Entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, nil, ioError(err)
	}
	return &e, nil, nil
}

// CommittedHere reports whether this process made the current revision.
func (s *Store) CommittedHere(ctx context.Context, name string) bool {
	var node string
	if err := s.pool.QueryRow(ctx, `SELECT node FROM scenes WHERE name = $1`, name).Scan(&node); err != nil {
		return false
	}
	return node == s.node
}
