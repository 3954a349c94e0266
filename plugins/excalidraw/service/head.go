package service

import (
	"context"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Head is a scene's current revision record without its content: what an
// editor needs to learn that the scene it shows is out of date.
type Head struct {
	Name         string `json:"name"`
	Revision     int64  `json:"revision"`
	SHA256       string `json:"sha256"`
	ElementCount int    `json:"elementCount"`
	UpdatedAt    string `json:"updatedAt"`
	UpdatedBy    string `json:"updatedBy"`
	// UpdatedByName is who last wrote it, named by their credential
	// ("claude (for erin)", "erin"), as its history names them.
	UpdatedByName string `json:"updatedByName,omitempty"`
}

func headOf(m store.Meta) Head {
	return Head{
		Name: m.Name, Revision: m.Revision, SHA256: m.SHA256, ElementCount: m.ElementCount,
		UpdatedAt: formatTime(m.UpdatedAt), UpdatedBy: string(m.UpdatedBy), UpdatedByName: m.UpdatedByName,
	}
}

// Head returns a scene's revision record. It reads through the store like
// Read does, without waiting for a writer: a sidecar left stale by a hand
// edit is repaired first when the scene's lock is free, and while a
// writer holds it the record is the last committed revision. While the
// scene file and its sidecar are provably the pair the store last saw
// agree, it costs two small reads instead of reading and hashing the
// scene (store.Store.Head).
func (s *Service) Head(ctx context.Context, name string) (Head, error) {
	m, err := s.store.Head(ctx, name)
	if err != nil {
		return Head{}, mapError(err)
	}
	return headOf(m), nil
}

// committed runs the OnCommit hook for a write that made a new revision:
// not a repeated request id nor an unchanged write, so open editors are
// not told of a revision that does not exist.
func (s *Service) committed(r *store.Result) {
	if s.onCommit != nil && !r.Duplicate && !r.Unchanged {
		s.onCommit(headOf(r.Meta))
	}
}

// CommittedHere reports whether a scene's current revision is one this
// service committed (and announced through OnCommit): the drawings
// watcher skips those instead of reading the scene again.
func (s *Service) CommittedHere(ctx context.Context, name string) bool {
	return s.store.CommittedHere(ctx, name)
}
