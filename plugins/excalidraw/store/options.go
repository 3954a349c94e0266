package store

import (
	"time"

	"go.uber.org/zap"
)

// Defaults for the zero values of Options.
const (
	DefaultMaxSceneBytes = 32 << 20
	DefaultLockTimeout   = 5 * time.Second
	DefaultStaleLockAge  = 30 * time.Second
	DefaultKeepBackups   = 100
)

// Codec is how the store checks bytes without knowing the scene model: the
// store must refuse to commit (and must detect on disk) documents that do not
// parse, and it records an element count as cheap evidence that what was read
// back is what was meant to be written.
type Codec interface {
	// Inspect parses data and returns its element count; an error means the
	// document is unparseable or invalid. A returned *Error or
	// [CodedError] keeps its code; any other error becomes invalid_scene.
	Inspect(data []byte) (elementCount int, err error)
}

// Options configure a Store. Only Dir and Codec are required.
type Options struct {
	// Dir is the drawings directory. It is created 0700 if missing (its parent
	// must exist) and must not be a symlink.
	Dir   string
	Codec Codec
	// MaxSceneBytes bounds documents written and read (too_large, with
	// details {limit: "maxSceneBytes", max, actual}); default 32 MiB. A
	// store that must keep reading files written under a larger bound is
	// opened with that larger bound; tighter policies on what may be
	// written belong to the caller.
	MaxSceneBytes int64
	// LockTimeout bounds a write's wait for a live cross-process lock
	// (scene_busy); default 5s. Reads never wait for the lock.
	LockTimeout time.Duration
	// StaleLockAge is when a lock file whose holder cannot be proven dead is
	// reclaimed anyway, judged by the file's mtime; default 30s. See lock.go.
	StaleLockAge time.Duration
	// KeepBackups is how many backups per scene are kept (older ones are pruned
	// as new ones are written); default 100, negative keeps all.
	KeepBackups int
	// Journal configures the per-scene commit journal (history).
	Journal JournalOptions
	// FS is the filesystem seam for fault injection; default OSFS().
	FS FS
	// Logger receives recovery and cleanup events; nil means zap.NewNop().
	Logger *zap.Logger
	// Now stamps updatedAt; default time.Now. Lock staleness always uses the
	// real clock, because it is compared with file mtimes set by the kernel.
	Now func() time.Time
	// Phases, if set, is told how long each phase of a commit took
	// (phases.go); it runs on the committing goroutines, so it must be
	// quick and safe for concurrent use.
	Phases func(phase string, d time.Duration)
}

// withDefaults fills zero values; it returns a copy so the caller's Options
// are never mutated.
func (o Options) withDefaults() Options {
	if o.MaxSceneBytes <= 0 {
		o.MaxSceneBytes = DefaultMaxSceneBytes
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = DefaultLockTimeout
	}
	if o.StaleLockAge <= 0 {
		o.StaleLockAge = DefaultStaleLockAge
	}
	if o.KeepBackups == 0 {
		o.KeepBackups = DefaultKeepBackups
	}
	o.Journal = o.Journal.withDefaults()
	if o.FS == nil {
		o.FS = OSFS()
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}
