package service

import (
	"io/fs"
	"math/rand/v2"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/quota"
	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Config configures a Service. Only DrawingsDir (or OpenStore) is
// required.
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
	// OnPreview, if set, is told of an agent's write as soon as it is
	// decided, before the store has it (see preview.go).
	OnPreview Previewer
	// Fonts is the folder of Excalidraw's font files (the editor build's
	// fonts/) that Render draws text with; nil draws no text.
	Fonts fs.FS
	// Guard decides who may do what to which scene (access.Policy); nil
	// lets every call through (an embedding program's own store).
	Guard Guard
	// Exports is where Export writes files and signs their links; nil
	// refuses exports.
	Exports *exports.Store
	// OpenStore, if set, opens the scene store with what the service
	// gives it: a PostgreSQL store for several nodes. Nil opens the file
	// store in DrawingsDir.
	OpenStore func(StoreParams) (store.Backend, error)
	// Quotas counts bots' hourly limits (create board, create folder);
	// nil counts in this process's memory. Several nodes share one
	// (quota.NewIn over the shared state's windows).
	Quotas *quota.Limiter
}

// StoreParams is what any scene store is opened with.
type StoreParams struct {
	// Codec is the service's: it checks what is stored, and is a
	// store.Differ too, so the journal records what each commit changed.
	Codec store.Codec
	// MaxSceneBytes is the largest scene the store takes (the reading
	// limit: a stored scene over a lowered limit stays readable).
	MaxSceneBytes int64
	Journal       store.JournalOptions
	Logger        *zap.Logger
	Now           func() time.Time
	// Phases is told of each commit's phases (store.Options.Phases).
	Phases func(phase string, d time.Duration)
}

// Service is safe for concurrent use: writes to one scene are serialized
// by the store, and the shared random source by randMu.
type Service struct {
	// store is the scene store behind the guard: every call checked.
	store guarded
	// docs is what is known of documents by their bytes, shared with the
	// store's codec: finish vouches for what it encodes, writes start
	// from it.
	docs *docCache
	// deltas shares the deltas of a commit among a board's open
	// streams (delta_cache.go).
	deltas deltaCache
	// limits bound what a write may produce; stored scenes are parsed
	// under stored (limits.ForReading()), so a lowered limit is never
	// mistaken for a corrupt file.
	limits   scene.Limits
	stored   scene.Limits
	now      func() time.Time
	randMu   sync.Mutex
	rand     *rand.Rand
	onCommit func(Head)
	preview  Previewer
	fonts    *fonts.Set
	exports  *exports.Store
	tiling   tiling
	log      *zap.Logger
	forks    forkStats
	groups   groups         // unfenced writes of a board sharing a commit (group.go)
	quotas   *quota.Limiter // bots' hourly limits (create board, create folder)
	noForks  bool           // every write edits a private copy (tests compare)
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
	obs := &observing{}
	codec := &storeCodec{Codec: scene.Codec{Limits: stored}, cache: docs}
	var st store.Backend
	var err error
	if cfg.OpenStore != nil {
		st, err = cfg.OpenStore(StoreParams{Codec: codec, MaxSceneBytes: stored.MaxSceneBytes, Journal: cfg.Journal, Logger: cfg.Logger, Now: now, Phases: obs.phase})
	} else {
		st, err = store.Open(store.Options{
			Dir:           cfg.DrawingsDir,
			Codec:         codec,
			MaxSceneBytes: stored.MaxSceneBytes,
			LockTimeout:   cfg.LockTimeout,
			Journal:       cfg.Journal,
			Logger:        cfg.Logger,
			Now:           now,
			Phases:        obs.phase,
		})
	}
	if err != nil {
		return nil, mapError(err)
	}
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	quotas := cfg.Quotas
	if quotas == nil {
		quotas = quota.New(now)
	}
	return &Service{quotas: quotas, store: guarded{st: st, guard: cfg.Guard, quotas: quotas, obs: obs}, docs: docs, limits: lim, stored: stored, now: now, rand: r, onCommit: cfg.OnCommit, preview: cfg.OnPreview, log: log, fonts: fonts.New(cfg.Fonts), exports: cfg.Exports}, nil
}

// Close closes the store; calls after Close fail.
func (s *Service) Close() error { return mapError(s.store.Close()) }

// seed draws the seed of one write's random source from the service's
// (*rand.Rand is not safe for concurrent use, so it is held only for
// that): writes on different scenes draw ids and nonces in parallel,
// and a write that runs again (editStored) draws the same ones.
type seed [2]uint64

func (s *Service) seed() seed {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	return seed{s.rand.Uint64(), s.rand.Uint64()}
}

// edit runs fn in an engine transaction on doc, with the service's clock,
// text limit and a random source of its own, and returns what the
// operations did.
func (s *Service) edit(doc *scene.Document, fn func(tx *engine.Txn) error) (engine.Result, error) {
	return s.editSeeded(doc, s.seed(), fn)
}

// editSeeded is edit with the random source seeded by sd.
func (s *Service) editSeeded(doc *scene.Document, sd seed, fn func(tx *engine.Txn) error) (engine.Result, error) {
	tx := engine.Begin(doc, engine.Config{Now: s.now, Rand: rand.New(rand.NewPCG(sd[0], sd[1])), MaxTextLength: s.limits.MaxTextLength})
	err := fn(tx)
	return tx.Result(), err
}
