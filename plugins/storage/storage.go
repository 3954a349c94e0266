// Package storage is the "storage" service: where a host and its plugins
// keep what they keep, the data directory's files or the PostgreSQL
// database every node of a deployment shares (host.store.kind). The host
// makes that choice once, when it opens its Storage; everything else asks
// the Storage it is given (its state documents, rate-limit windows and,
// for larger stores, DB) instead of choosing again.
package storage

import (
	"context"
	"sync"

	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/database"
	"github.com/dshgo/dsh/plugins/hostinfo"
)

// ServiceName is the name the host provides its *Storage under.
const ServiceName = "storage"

// The kinds of Storage, as host.store.kind and `dsh store migrate` name
// them.
const (
	KindFiles    = "fs"
	KindPostgres = "postgres"
)

// Storage is one host's store: files under DataDir, or DB (shared by
// every node) with DataDir for what stays local (the runtime file, logs).
// It is safe for concurrent use.
type Storage struct {
	dataDir string
	db      *database.DB // nil: files

	once    sync.Once
	windows statefile.Windows
}

// Files is the Storage of the data directory dataDir.
func Files(dataDir string) *Storage { return &Storage{dataDir: dataDir} }

// Postgres is the Storage of the shared database db, with dataDir for
// what each node keeps locally.
func Postgres(dataDir string, db *database.DB) *Storage { return &Storage{dataDir: dataDir, db: db} }

// Kind is KindFiles or KindPostgres.
func (s *Storage) Kind() string {
	if s.db != nil {
		return KindPostgres
	}
	return KindFiles
}

// DataDir is the host's data directory.
func (s *Storage) DataDir() string { return s.dataDir }

// Resolve is path in the data directory (an absolute path as it is).
func (s *Storage) Resolve(path string) string { return hostinfo.Info{DataDir: s.dataDir}.Resolve(path) }

// DB is the shared database, nil when the Storage is files: a plugin
// opens its larger stores (scenes, files) on it or in the data directory.
func (s *Storage) DB() *database.DB { return s.db }

// State is the backend of the host's small shared documents and windows
// when they are in the database; nil when they are files (then each
// store keeps its own file, whose path it is given beside it).
func (s *Storage) State() statefile.Backend {
	if s.db == nil {
		return nil
	}
	return s.db.State
}

// Doc is the state document name: the database's, else the file at path
// (relative to the data directory unless absolute), described as what.
func (s *Storage) Doc(name, path, what string) statefile.Doc {
	if s.db != nil {
		return s.db.State.Doc(name)
	}
	return statefile.File(s.Resolve(path), what)
}

// Windows are the rate-limit windows: the database's (every node's
// requests count), else this process's memory.
func (s *Storage) Windows() statefile.Windows {
	if s.db != nil {
		return s.db.State.Windows()
	}
	s.once.Do(func() { s.windows = statefile.NewMemoryWindows() })
	return s.windows
}

// Listen calls fn with a document's name when another node changes it
// (and with "" after a lost connection is back), until stop; with files
// there are no other nodes and it does nothing.
func (s *Storage) Listen(ctx context.Context, fn func(name string)) (stop func(), err error) {
	if s.db == nil {
		return func() {}, nil
	}
	return s.db.State.Listen(ctx, fn)
}

// Where names the store for logs and reports: the data directory, or the
// database server (never its password).
func (s *Storage) Where() string {
	if s.db != nil {
		return s.db.Where
	}
	return s.dataDir
}

// Close lets go of the database's pool, if any.
func (s *Storage) Close() {
	if s.db != nil {
		s.db.Pool.Close()
	}
}
