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
// The operations are checked for shape first (engine.DecodeOps); then
// they run through the one write pipeline (write: inside the store's
// read-modify-write, under the scene's locks, after the request-id and
// revision checks) in one engine transaction on a private copy of the
// stored document (engine.Txn.Apply): all adds first, built together so
// that arrows can bind to elements added in the same call; then updates
// and deletes in call order (they may name elements added by explicit
// id), then the app state is merged. One failing operation fails the
// call and nothing is written. The result is normalized, validated and
// bounded like every write.
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
	var done engine.Result
	w, err := s.write(ctx, WriteRequest{Name: r.Name, ExpectedRevision: &r.ExpectedRevision, RequestID: r.RequestID,
		Actor: r.Actor, Attribution: r.Attribution, Named: engine.OpIDs(ops)},
		func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
			if err := tx.Apply(ops); err != nil {
				return PlanResult{}, err
			}
			if err := tx.MergeAppState(r.AppState, "/app_state"); err != nil {
				return PlanResult{}, err
			}
			done = tx.Result()
			return PlanResult{Targets: done.IDs}, nil
		}, false)
	if err != nil {
		return nil, err
	}
	wr := writeResult(w.res)
	if w.doc == nil || w.res.Duplicate {
		return wr, nil
	}
	named := make(map[string]bool, len(done.IDs))
	for _, id := range done.IDs {
		named[id] = true
	}
	wr.Operations = &done
	wr.Summary = summarize(w.doc, "", named)
	return wr, nil
}

// MaxOperations bounds one Apply call (contract 4.4).
const MaxOperations = engine.MaxOperations

// OperationSchema returns the JSON Schema (draft 2020-12) of one Apply
// operation (engine.OperationSchema): a union of add, update and delete,
// each branch closed. Apply re-checks everything: the schema is a
// contract, not the security boundary.
func OperationSchema() json.RawMessage { return engine.OperationSchema() }
