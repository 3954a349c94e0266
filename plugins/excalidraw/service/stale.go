package service

import (
	"context"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Stale is the revision_conflict a write to the scene name based on
// revision expected would meet, told from the scene's head alone (the
// record the store last saw agree with the file, or its sidecar: see
// store.Store.Head), before anything of the write is decoded. It is nil
// when the write may go on or the head cannot tell: a name that is not
// valid, a caller who may not write the scene, a head that cannot be
// read (the write itself reports each as before). A write with a request
// id is for its caller to leave to the store, which answers a repeated
// one with its result, not a conflict.
func (s *Service) Stale(ctx context.Context, name string, expected int64) error {
	if store.ValidName(name) != nil || s.store.check(ctx, name, access.Write) != nil {
		return nil
	}
	m, err := s.store.st.Head(ctx, name)
	if err != nil || m.Revision == expected {
		return nil
	}
	s.store.obs.conflict()
	return mapError(store.Conflict(m, expected))
}
