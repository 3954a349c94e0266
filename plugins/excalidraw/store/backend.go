package store

import (
	"context"

	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
)

// Backend is everything the scene service asks of a scene store: the
// file store here, and any other that keeps the same promises (see
// storetest, the conformance suite every backend must pass). Writes are
// Create, Update and Save, each one commit (a revision and its journal
// entry) or none; reads never wait for a writer.
type Backend interface {
	Create(ctx context.Context, r CreateRequest) (*Result, error)
	Update(ctx context.Context, r UpdateRequest) (*Result, error)
	Save(ctx context.Context, r SaveRequest) (*Result, error)
	Read(ctx context.Context, name string) (*Scene, error)
	ReadRevision(ctx context.Context, name string, rev int64) ([]byte, error)
	Head(ctx context.Context, name string) (Meta, error)
	List(ctx context.Context) ([]Summary, error)
	Log(ctx context.Context, q LogQuery) (*LogPage, error)
	Commit(ctx context.Context, name, id string) (*journal.Entry, *journal.Images, error)
	// CommittedHere reports whether the scene's current revision was
	// committed by this process (live updates skip their own commits).
	CommittedHere(ctx context.Context, name string) bool
	Close() error
}

var _ Backend = (*Store)(nil)
