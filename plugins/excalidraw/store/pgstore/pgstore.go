// Package pgstore keeps scenes in PostgreSQL: a store.Backend for dsh
// nodes that share one database, keeping the file store's promises (the
// storetest suite) with rows instead of files. The schema is
// internal/pgdb's (its migrations); the pool comes from pgdb.Open.
//
// # Commits
//
// Every write is one transaction at READ COMMITTED. A write to an
// existing scene first locks the scene's row (SELECT … FOR UPDATE), then
// answers a remembered request id, checks the revision fence, and writes
// the scene row, the superseded revision's stored bytes (moved within
// the server), the request id, the journal entry with its before-images,
// and a notification for the other nodes (pg_notify, delivered at
// commit); then it commits. The row's new bytes are hashed by the server
// in the same statement that writes them, and a hash other than that of
// the bytes sent fails it (Result.Verified is that check).
//
// # Bytes written as the change
//
// A commit stores its document as a delta against the revision before
// it (delta.go: copies of the unchanged spans, the changed bytes
// inserted), so a one-element save writes about that element, not the
// document; it is written whole again (a snapshot) when the chain of
// deltas since the last one would pass maxChain deltas or half the
// document's size. Any revision is rebuilt from its chain's snapshot
// through its deltas and checked (against the CRC-32C of the document
// its delta carries; ReadRevision and Archive against its SHA-256):
// reads return the exact bytes saved. Each Store keeps the bytes of the revisions it last
// committed or read (Options.CacheBytes): a commit diffs against them,
// and a read of a row still at that revision sends no bytes, one a few
// commits behind only the deltas since. Retention keeps a dropped
// revision that a kept one is rebuilt through as a hidden link (never
// served). Rows from before deltas (migration 4) are whole, and read as
// they are.
//
// # Why the row lock is enough
//
// Everything a commit reads and writes belongs to one scene, and every
// writer of an existing scene takes that scene's row lock first. Under
// READ COMMITTED, a SELECT … FOR UPDATE that finds the row locked waits
// for the holder to end and then returns the row's newest committed
// version, not the one its snapshot saw: so each writer sees the
// revision the previous one committed, and two writers on one base
// cannot both pass the fence. The remembered request ids are read by the
// next statement, which (READ COMMITTED) sees everything committed
// before it began, the lock holder's ids included, so a retry racing its
// original is a duplicate, never a second commit. Nothing stronger
// (REPEATABLE READ, SERIALIZABLE) is needed, and none of their
// serialization failures are to be retried.
//
// A Create of a new name has no row to lock. It inserts the row with
// INSERT … ON CONFLICT DO NOTHING: the primary key makes a second insert
// of the name wait for the first one's transaction, and when that
// commits, the second inserts nothing, which Create reports as
// already_exists (when it rolls back, the second goes ahead). So exactly
// one Create of a name wins.
//
// # All or nothing
//
// A commit's rows are written in its one transaction, and PostgreSQL
// makes a transaction durable whole at COMMIT or not at all: a failed
// statement, a lost connection or a server crash before COMMIT is
// acknowledged rolls every row of it back. So a scene's revision and its
// journal always agree; there is no half-written commit to repair, and
// nothing like the file store's recovery. The one uncertainty is a
// connection that breaks during COMMIT itself: the commit may have
// landed, and the error says so (a retry with the same request id is
// then safe).
//
// # When the database cannot be reached
//
// Every call then fails with io_error "the database cannot be reached;
// try again shortly", details {retryable: true, retryAfterSec: 2}. The
// pool reconnects by itself; a call that meets a pooled connection which
// broke since its last use (the server restarted) tries again on another
// before anything was done, so the first call after an outage does not
// fail for it. A cancelled context is the caller's, not the database's:
// scene_busy, as the file store says.
//
// # Live updates
//
// Each commit notifies channel dsh_commits with "<name> <revision>";
// a Listener follows them on a connection of its own, across
// reconnects. CommittedHere tells a node its own commits.
//
// # Archives
//
// A Store is a store.Archiver, for moving scenes between backends
// whole. Archive reads a scene's rows in one REPEATABLE READ, read-only
// transaction: one moment of it, without a lock. Restore checks the
// archive (SceneArchive.Check), then writes its rows in one transaction,
// so a failure or a crash leaves none of them and a commit all: the
// scene row with the archived record (no node's: CommittedHere is false
// for it), the request ids in their order, the journal rows as they
// were (commit ids, sequence numbers, images) and the kept revisions,
// corrupt copies included (never served), with a notification as a
// commit's. It makes no commit of its own; the next one follows the
// archived revision and sequence number. Over a scene that is there, it
// compares as the file store's Restore does: the archived one is
// RestoreUnchanged, anything else already_exists, and nothing is
// written. Times are kept to the millisecond, as the file store keeps
// them, so a scene passed between the two compares equal.
//
// # Retention
//
// As the file store: JournalOptions.MaxEntries and MaxAge drop the
// oldest journal entries (in batches, checked every few commits), the
// newest always kept, and with them the bytes of the revisions before
// the oldest entry kept; and, as the file store's KeepBackups, only the
// newest KeepRevisions superseded revisions keep their bytes.
// ReadRevision of any other is not_found.
package pgstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Options configure a Store. Pool and Codec are required.
type Options struct {
	// Pool is the database (pgdb.Open: connected, schema migrated). The
	// Store uses it and never closes it.
	Pool *pgxpool.Pool
	// Codec checks documents, and through its store.Differ, if it has
	// one, tells the journal what changed.
	Codec store.Codec
	// Now stamps commits; default time.Now.
	Now func() time.Time
	// Journal configures the journal (store.JournalOptions' defaults).
	Journal store.JournalOptions
	// MaxSceneBytes bounds documents written (too_large); default
	// store.DefaultMaxSceneBytes.
	MaxSceneBytes int64
	// KeepRevisions is how many superseded revisions' bytes each scene
	// keeps for ReadRevision, as the file store's KeepBackups (default
	// store.DefaultKeepBackups; negative: as many as the journal keeps).
	KeepRevisions int
	// Logger receives retention, retry and listener events; nil: none.
	Logger *zap.Logger
	// CacheBytes bounds the scenes' bytes the Store keeps in memory, to
	// diff commits against and to answer reads of an unchanged row
	// (default DefaultCacheBytes; negative: none kept).
	CacheBytes int64
	// Phases, if set, is told how long each phase of a commit took
	// (store.PhaseBegin, PhaseLock, PhaseRead, PhaseWrite, PhaseCommit;
	// PhaseLockGaveUp for a lock wait that ended without the scene), as
	// the file store's store.Options.Phases: quick, safe for concurrent
	// use.
	Phases func(phase string, d time.Duration)
}

// Store is the PostgreSQL backend: safe for concurrent use, and for any
// number of Stores (nodes) on one database.
type Store struct {
	pool     *pgxpool.Pool
	codec    store.Codec
	differ   store.Differ // nil: the codec has none
	now      func() time.Time
	journal  store.JournalOptions
	maxBytes int64
	keepRevs int
	log      *zap.Logger
	node     string // this Store, in the scene rows it commits (CommittedHere)
	retries  int    // how many broken pooled connections a call gets past
	agedAt   sync.Map
	heads    *heads
	closed   atomic.Bool
	phases   func(phase string, d time.Duration) // nil: none told
}

var _ store.Backend = (*Store)(nil)

// Open makes a Store on o.Pool, checking the schema is there.
func Open(ctx context.Context, o Options) (*Store, error) {
	if o.Pool == nil {
		return nil, errors.New("pgstore: a pool is required (pgdb.Open)")
	}
	if o.Codec == nil {
		return nil, errors.New("pgstore: a codec is required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxSceneBytes <= 0 {
		o.MaxSceneBytes = store.DefaultMaxSceneBytes
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.KeepRevisions == 0 {
		o.KeepRevisions = store.DefaultKeepBackups
	}
	if o.CacheBytes == 0 {
		o.CacheBytes = DefaultCacheBytes
	}
	var ok bool
	err := o.Pool.QueryRow(ctx, `SELECT to_regclass('scenes') IS NOT NULL AND to_regclass('revisions') IS NOT NULL
		AND to_regclass('requests') IS NOT NULL AND to_regclass('journal') IS NOT NULL
		AND EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'scenes' AND column_name = 'chain_bytes'
			AND table_schema = current_schema())`).Scan(&ok)
	switch {
	case err != nil && ctx.Err() == nil && pgdb.Unreachable(err):
		return nil, fmt.Errorf("pgstore: %w", unreachable(err))
	case err != nil:
		return nil, fmt.Errorf("pgstore: check the schema: %w", err)
	case !ok:
		return nil, errors.New("pgstore: the database has no scene tables (open the pool with pgdb.Open, which applies the migrations)")
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	s := &Store{pool: o.Pool, codec: o.Codec, now: o.Now, journal: o.Journal.WithDefaults(), maxBytes: o.MaxSceneBytes,
		keepRevs: o.KeepRevisions, log: o.Logger, node: hex.EncodeToString(b[:]), retries: int(o.Pool.Config().MaxConns) + 1,
		heads: newHeads(max(o.CacheBytes, 0)), phases: o.Phases}
	s.differ, _ = o.Codec.(store.Differ)
	return s, nil
}

// Close makes later calls fail with io_error. The pool stays open: it is
// the caller's.
func (s *Store) Close() error {
	s.closed.Store(true)
	return nil
}

// Listener is a Listener on this Store's database, logging to its logger.
func (s *Store) Listener() *Listener {
	return NewListener(s.pool, ListenerOptions{Logger: s.log})
}

// unreachableMessage is what a caller is told when the database does not
// answer.
const unreachableMessage = "the database cannot be reached; try again shortly"

// unreachable is the error of a call that could not reach the database:
// io_error, retryable after a moment.
func unreachable(err error) *store.Error {
	return store.NewError(store.CodeIOError, unreachableMessage, err).With("retryable", true).With("retryAfterSec", 2)
}

// fail is err, from the database while doing what, as the store reports
// it: a store error as it is; the caller's cancelled context as
// scene_busy (as the file store reports one), never as unreachable;
// a server that does not answer as unreachable; anything else io_error.
func (s *Store) fail(ctx context.Context, err error, what string) error {
	var se *store.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &se):
		return se
	case ctx.Err() != nil:
		if !errors.Is(err, ctx.Err()) {
			err = errors.Join(ctx.Err(), err)
		}
		return store.NewError(store.CodeSceneBusy, "cancelled while it was to "+what, err)
	case pgdb.Unreachable(err):
		return unreachable(err)
	case untranslatable(err):
		// The only text PostgreSQL refuses that the file store keeps:
		// U+0000 in an element id the journal lists (notes and names are
		// refused earlier, by store.CheckWrite).
		return store.NewError(store.CodeInvalidScene, "the scene holds text with U+0000 (in an element id?), which this store cannot keep", err)
	default:
		return store.NewError(store.CodeIOError, "the database failed to "+what, err)
	}
}

// untranslatable is PostgreSQL refusing a character (22P05: U+0000 in
// jsonb or text).
func untranslatable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "22P05" || pe.Code == "22021")
}

// broken reports whether err is a pooled connection that had broken (the
// server restarted or cut it) rather than the server being down: a call
// that failed so before it did anything goes again on another
// connection. A fresh connection that failed (*pgconn.ConnectError)
// would only fail again.
func (s *Store) broken(ctx context.Context, err error) bool {
	var ce *pgconn.ConnectError
	return ctx.Err() == nil && pgdb.Unreachable(err) && !errors.As(err, &ce)
}

// closedError is every call's answer after Close.
func closedError() error { return store.NewError(store.CodeIOError, "store is closed", nil) }

// reading runs a read, again while it fails on broken pooled connections
// (a read can always be repeated), and reports its error as fail does.
func (s *Store) reading(ctx context.Context, what string, read func() error) error {
	if s.closed.Load() {
		return closedError()
	}
	if err := ctx.Err(); err != nil {
		return store.NewError(store.CodeSceneBusy, "cancelled before start", err)
	}
	for attempt := 1; ; attempt++ {
		err := read()
		if err == nil || attempt > s.retries || !s.broken(ctx, err) {
			return s.fail(ctx, err, what)
		}
		s.log.Info("pgstore: a pooled connection had broken; reading again", zap.Error(err))
	}
}
