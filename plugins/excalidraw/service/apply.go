package service

import (
	"context"
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// ApplyRequest is contract 4.4's input.
type ApplyRequest struct {
	Name             string
	ExpectedRevision int64
	// Operations are 1 to MaxOperations operations (see engine.Op).
	Operations []json.RawMessage
	// AppState is a subset merged over the stored appState.
	AppState  json.RawMessage
	RequestID string
	// Actor defaults to agent.
	Actor store.Actor
	// Attribution says who (by name), through what and why; it is kept
	// in the scene's journal.
	Attribution store.Attribution
}

// Apply runs operations on a scene as one all-or-nothing change.
//
// The operations are checked for shape first (engine.DecodeOps); then,
// inside the store's read-modify-write (under the scene's locks, after
// the request-id and revision checks), they run in one engine transaction
// on a private copy of the stored document (engine.Txn.Apply): all adds
// first, built together so that arrows can bind to elements added in the
// same call; then updates and deletes in call order (they may name
// elements added by explicit id), then the app state is merged. One failing operation
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
	ops, err := engine.DecodeOps(r.Operations)
	if err != nil {
		return nil, err
	}
	var done *applied
	res, err := s.store.Update(ctx, store.UpdateRequest{
		Name: r.Name, ExpectedRevision: r.ExpectedRevision, Actor: actorOr(r.Actor, store.ActorAgent), RequestID: r.RequestID,
		Attribution: r.Attribution,
		Mutate: func(cur *store.Scene) ([]byte, error) {
			a, data, err := s.applyOps(cur.Data, ops, r.AppState)
			done = a
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
	named := make(map[string]bool, len(done.result.IDs))
	for _, id := range done.result.IDs {
		named[id] = true
	}
	wr.Operations = &done.result
	wr.Summary = summarize(done.doc, "", named)
	return wr, nil
}

// applied is the document an Apply's operations left and what they did.
type applied struct {
	doc    *scene.Document
	result engine.Result
}

// applyOps runs the operations (then the app state) on the stored bytes
// in one engine transaction and returns what it did and the new bytes.
// Parsing gives a document private to this call, so a failure leaves
// nothing behind.
func (s *Service) applyOps(data []byte, ops []engine.Op, appState json.RawMessage) (*applied, []byte, error) {
	var res engine.Result
	var out []byte
	doc, err := s.editStored(data, engine.OpIDs(ops), func(doc *scene.Document, sd seed) error {
		var err error
		res, err = s.editSeeded(doc, sd, func(tx *engine.Txn) error {
			if err := tx.Apply(ops); err != nil {
				return err
			}
			return tx.MergeAppState(appState, "/app_state")
		})
		if err != nil {
			return err
		}
		out, err = s.finish(doc)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return &applied{doc: doc, result: res}, out, nil
}

// MaxOperations bounds one Apply call (contract 4.4).
const MaxOperations = engine.MaxOperations

// OperationSchema returns the JSON Schema (draft 2020-12) of one Apply
// operation (engine.OperationSchema): a union of add, update and delete,
// each branch closed. Apply re-checks everything: the schema is a
// contract, not the security boundary.
func OperationSchema() json.RawMessage { return engine.OperationSchema() }
