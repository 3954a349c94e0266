package service

import (
	"math/rand/v2"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Config configures a Service. Only DrawingsDir is required.
type Config struct {
	// DrawingsDir is the drawings directory (created if missing).
	DrawingsDir string
	// Limits bound every scene written; zero fields take scene's defaults.
	// A stored scene over them (written before they were lowered) stays
	// readable; a write whose result is still over one is refused with
	// that limit's error (sceneerr.OverLimit).
	Limits scene.Limits
	// LockTimeout bounds the wait for another process's lock (scene_busy).
	LockTimeout time.Duration
	// Journal configures each scene's commit journal (history).
	Journal store.JournalOptions
	// Logger receives store events; nil means none.
	Logger *zap.Logger
	// Now stamps revisions and elements' `updated`; nil means time.Now.
	// Tests pin it so output is reproducible.
	Now func() time.Time
	// Rand draws element ids, seeds and nonces; nil means randomly seeded.
	// It is used under a mutex, so one source may serve concurrent calls.
	Rand *rand.Rand
	// OnCommit, if set, is called after every write (Create, Apply, Save)
	// that committed a new revision, with that revision's record; not for
	// a duplicate request id or an unchanged write, which committed
	// nothing. It runs on the writer's goroutine after the scene's lock is
	// released, so it must be quick (e.g. live.Hub.Publish).
	OnCommit func(Head)
}

// Service is safe for concurrent use: writes to one scene are serialized
// by the store, and the shared random source by randMu.
type Service struct {
	store *store.Store
	// docs is what is known of documents by their bytes, shared with the
	// store's codec: finish vouches for what it encodes, writes start
	// from it.
	docs *docCache
	// limits bound what a write may produce; stored scenes are parsed
	// under stored (limits.ForReading()), so a lowered limit is never
	// mistaken for a corrupt file.
	limits   scene.Limits
	stored   scene.Limits
	now      func() time.Time
	randMu   sync.Mutex
	rand     *rand.Rand
	onCommit func(Head)
}

// New opens the store with a scene.Codec (and byte bound) under the
// reading limits: the store refuses, on disk and on write, what is no
// scene at all (unparseable, or beyond what any configuration allows),
// while the configured limits are the service's to enforce on every write
// (finish, and Parse of a browser's save) before the store is reached. So
// a stored scene over a lowered limit is read, listed and repaired like
// any other, never restored from a backup as if corrupt.
func New(cfg Config) (*Service, error) {
	lim := cfg.Limits.Effective()
	stored := lim.ForReading()
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	r := cfg.Rand
	if r == nil {
		r = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	docs := &docCache{}
	st, err := store.Open(store.Options{
		Dir:           cfg.DrawingsDir,
		Codec:         &storeCodec{Codec: scene.Codec{Limits: stored}, cache: docs},
		MaxSceneBytes: stored.MaxSceneBytes,
		LockTimeout:   cfg.LockTimeout,
		Journal:       cfg.Journal,
		Logger:        cfg.Logger,
		Now:           now,
	})
	if err != nil {
		return nil, mapError(err)
	}
	return &Service{store: st, docs: docs, limits: lim, stored: stored, now: now, rand: r, onCommit: cfg.OnCommit}, nil
}

// Close closes the store; calls after Close fail.
func (s *Service) Close() error { return mapError(s.store.Close()) }

// withRand runs fn with the shared random source held, because
// *rand.Rand is not safe for concurrent use.
func (s *Service) withRand(fn func(r *rand.Rand)) {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	fn(s.rand)
}

// edit runs fn in an engine transaction on doc, with the service's clock,
// text limit and random source (held for the whole of fn, since the
// transaction draws from it), and returns what the operations did.
func (s *Service) edit(doc *scene.Document, fn func(tx *engine.Txn) error) (engine.Result, error) {
	var (
		res engine.Result
		err error
	)
	s.withRand(func(r *rand.Rand) {
		tx := engine.Begin(doc, engine.Config{Now: s.now, Rand: r, MaxTextLength: s.limits.MaxTextLength})
		err = fn(tx)
		res = tx.Result()
	})
	return res, err
}
