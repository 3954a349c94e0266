package store

import (
	"context"
	"errors"
	"io/fs"
)

// CreateRequest creates a new scene.
type CreateRequest struct {
	Name      string
	Data      []byte
	Actor     Actor
	RequestID string // recorded, so a later Save retrying it is a duplicate
}

// Create writes a new scene at revision 1. It is not idempotent by request
// id: the name is the identity, so creating an existing name is
// already_exists, also when it was this same request that created it. The
// final rename refuses to replace a file that appeared meanwhile (RENAME_NOREPLACE).
func (s *Store) Create(ctx context.Context, r CreateRequest) (*Result, error) {
	if err := checkWrite(r.Name, r.Actor, r.RequestID); err != nil {
		return nil, err
	}
	count, err := s.inspectNew(r.Data)
	if err != nil {
		return nil, err
	}
	t, err := s.begin(ctx, r.Name)
	if err != nil {
		return nil, err
	}
	defer t.end()

	info, err := s.fs.Lstat(s.root, sceneFile(r.Name))
	switch {
	case err == nil && info.Mode()&fs.ModeSymlink != 0:
		return nil, errorf(CodePermissionDenied, "scene %s is a symlink", r.Name).with("name", r.Name)
	case err == nil:
		return nil, errorf(CodeAlreadyExists, "scene %s already exists", r.Name).with("name", r.Name)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fsError("stat scene "+r.Name, err)
	}
	// A sidecar left by a scene deleted outside the store is replaced, but
	// kept byte for byte in case the create has to be rolled back.
	side, err := s.readSidecar(t.dirs.meta, r.Name)
	if err != nil {
		return nil, err
	}
	cur := &current{side: side, meta: Meta{Name: r.Name}}
	return t.commit(cur, change{data: r.Data, count: count, actor: r.Actor, requestID: r.RequestID,
		revision: 1, create: true})
}
