package service

import (
	"context"
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// ApplyRequest is contract 4.4's input.
type ApplyRequest struct {
	Name             string
	ExpectedRevision int64
	// Operations are 1 to MaxOperations operations (see ops.go).
	Operations []json.RawMessage
	// AppState is a subset merged over the stored appState.
	AppState  json.RawMessage
	RequestID string
	// Actor defaults to agent.
	Actor store.Actor
}

// Apply runs operations on a scene as one all-or-nothing change.
//
// The operations are checked for shape first; then, inside the store's
// read-modify-write (under the scene's locks, after the request-id and
// revision checks), they run on a private copy of the stored document:
// all adds first, built together by build.Build so that arrows can bind to
// elements added in the same call; then updates and deletes in call order
// (they may name elements added by explicit id). One failing operation
// fails the call and nothing is written. The result is normalized,
// validated and bounded like every write.
//
// Operations that change nothing (an update to the values an element
// has) leave the element's version alone, as Excalidraw's mutateElement
// does; if the whole call changes no byte, nothing is written and the
// result is the current revision with unchanged:true.
//
// A stored scene over a limit lowered since it was written is edited
// like any other, but the result must be within the limits: a call that
// leaves it over is refused with the limit's code (deleting elements
// brings it back, since tombstones do not count against maxElements).
//
// A repeated request id returns the committed revision's evidence with
// duplicate:true; the operations do not run again, so Operations and
// Summary are then absent. The summary of a fresh write covers only the
// elements the operations named (an agent pays for every token; the rest
// of the scene is one read away).
func (s *Service) Apply(ctx context.Context, r ApplyRequest) (*WriteResult, error) {
	if err := store.ValidName(r.Name); err != nil {
		return nil, mapError(err)
	}
	ops, err := decodeOps(r.Operations)
	if err != nil {
		return nil, err
	}
	var done *edit
	res, err := s.store.Update(ctx, store.UpdateRequest{
		Name: r.Name, ExpectedRevision: r.ExpectedRevision, Actor: actorOr(r.Actor, store.ActorAgent), RequestID: r.RequestID,
		Mutate: func(cur *store.Scene) ([]byte, error) {
			e, data, err := s.applyOps(cur.Data, ops, r.AppState)
			done = e
			return data, err
		},
	})
	if err != nil {
		return nil, mapError(err)
	}
	s.committed(res)
	wr := writeResult(res)
	if done == nil || res.Duplicate {
		return wr, nil
	}
	wr.Operations = &done.summary
	wr.Summary = summarize(done.doc, "", done.named)
	return wr, nil
}

// applyOps runs the operations on the stored bytes and returns the edit
// and the new bytes. Parsing gives a document private to this call, so a
// failure leaves nothing behind.
func (s *Service) applyOps(data []byte, ops []operation, appState json.RawMessage) (*edit, []byte, error) {
	doc, err := scene.Parse(data, s.stored)
	if err != nil {
		return nil, nil, sceneerr.New(sceneerr.CorruptScene, "stored scene does not parse").With("cause", err.Error())
	}
	e := s.newEdit(doc)
	if err := e.run(ops); err != nil {
		return nil, nil, err
	}
	if err := mergeAppState(doc, appState, "/app_state"); err != nil {
		return nil, nil, err
	}
	out, err := s.finish(doc)
	if err != nil {
		return nil, nil, err
	}
	return e, out, nil
}
