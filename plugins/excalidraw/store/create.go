package store

import (
	"context"
	"errors"
	"io/fs"

	"go.uber.org/zap"
)

// CreateRequest creates a new scene.
type CreateRequest struct {
	Name      string
	Data      []byte
	Actor     Actor
	RequestID string // recorded, so a later Save retrying it is a duplicate
	// Attribution is kept in the journal (and its Name in the sidecar).
	Attribution Attribution
}

// Create writes a new scene at revision 1. It is not idempotent by request
// id: the name is the identity, so creating an existing name is
// already_exists, also when it was this same request that created it. The
// final rename refuses to replace a file that appeared meanwhile (RENAME_NOREPLACE).
func (s *Store) Create(ctx context.Context, r CreateRequest) (*Result, error) {
	if err := checkWrite(r.Name, r.Actor, r.RequestID, r.Attribution); err != nil {
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
	// A sidecar left by a scene deleted outside the store is replaced (with
	// the journal: removed first, see below).
	side, err := s.readSidecar(t.dirs.meta, r.Name)
	if err != nil {
		return nil, err
	}
	cur := &current{side: side, meta: Meta{Name: r.Name}}
	if !s.opts.Journal.Disabled {
		// A journal left by a scene deleted outside the store is the
		// history of another document: the new scene starts its own. Its
		// stale sidecar goes first, so that if this create is cut short,
		// no reader takes the new journal's entry for a revision of the
		// old sidecar's (readers list entries up to the sidecar's
		// revision).
		if side.raw != nil {
			if err := s.fs.Remove(t.dirs.meta, sidecarFile(r.Name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fsError("remove stale sidecar", err)
			}
			s.syncDir(t.dirs.meta)
			cur.side = sidecarState{}
		}
		if t.journal, err = t.openJournal(); err != nil {
			return nil, err
		}
		if t.journal.end > 0 {
			s.log.Warn("starting a new journal for a recreated scene", zap.String("name", r.Name))
			if err := t.truncateJournal(t.journal, 0); err != nil {
				return nil, err
			}
		}
	}
	return t.commit(cur, change{data: r.Data, count: count, actor: r.Actor, attr: r.Attribution, requestID: r.RequestID,
		revision: 1, create: true})
}
