package store

import (
	"context"
)

// UpdateRequest is an atomic read-modify-write of a scene.
type UpdateRequest struct {
	Name             string
	ExpectedRevision int64
	// AnyRevision skips the fence. The mutation still sees the current scene
	// under the lock, so no concurrent update is lost; use it when the caller
	// describes a change rather than a whole new document.
	AnyRevision bool
	Actor       Actor
	RequestID   string
	// Attribution is kept in the journal (and its Name in the sidecar).
	Attribution Attribution
	// Mutate returns the new document for the current one. It runs under the
	// scene's locks, so it must be quick and must not call the store for the
	// same scene. Its error is returned unchanged and nothing is written.
	// current.Data is the store's own copy of the bytes (it backs the
	// store's record of the file): read it, return it to change nothing,
	// but never modify it.
	Mutate func(current *Scene) ([]byte, error)
}

// Update runs Mutate under the scene's locks and commits its result.
//
//  1. Validate; take the locks; load the scene (reconciling if needed).
//  2. A remembered request id returns the original commit; Mutate is not
//     called again.
//  3. Check the revision fence (unless AnyRevision).
//  4. Call Mutate with the current scene.
//  5. Validate the new document and commit it as the next revision (or,
//     if Mutate returned the current bytes, nothing: Unchanged).
func (s *Store) Update(ctx context.Context, r UpdateRequest) (*Result, error) {
	if err := checkWrite(r.Name, r.Actor, r.RequestID, r.Attribution); err != nil {
		return nil, err
	}
	if r.Mutate == nil {
		return nil, errorf(CodeInvalidRequest, "UpdateRequest.Mutate is required")
	}
	var stale func(*sidecar) bool
	if !r.AnyRevision {
		stale = func(sc *sidecar) bool { return r.ExpectedRevision != sc.Revision }
	}
	t, cur, dup, err := s.beginExisting(ctx, r.Name, r.RequestID, stale, r.ExpectedRevision)
	if err != nil || dup != nil {
		return dup, err
	}
	defer t.end()
	if cur.corrupt != nil {
		return nil, corruptError(cur)
	}
	if !r.AnyRevision && r.ExpectedRevision != cur.meta.Revision {
		return nil, conflictError(cur, r.ExpectedRevision)
	}
	data, err := r.Mutate(&Scene{Meta: cur.meta, Data: cur.data})
	if err != nil {
		return nil, err
	}
	count, err := s.inspectNew(data)
	if err != nil {
		return nil, err
	}
	return t.commit(cur, change{data: data, count: count, actor: r.Actor, attr: r.Attribution, requestID: r.RequestID,
		revision: cur.meta.Revision + 1})
}
