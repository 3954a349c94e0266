package service

import (
	"context"
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// CreateRequest is contract 4.3's input.
type CreateRequest struct {
	Name string
	// Elements are strict element inputs (build.InputSchema); arrows may
	// bind to ids given in the same call.
	Elements []json.RawMessage
	// AppState is a subset of viewBackgroundColor, gridSize, gridModeEnabled.
	AppState json.RawMessage
	// Files are attachments keyed by file id (image data URLs).
	Files     json.RawMessage
	RequestID string
	// Actor defaults to agent.
	Actor store.Actor
	// Attribution says who (by name), through what and why; it is kept
	// in the scene's journal.
	Attribution store.Attribution
}

// Create writes a new scene at revision 1. The name is checked first, so
// a bad name is invalid_name whatever else is wrong; then the app state
// (cheap, and refused before attachments are decoded or elements built);
// an existing name is already_exists (creating is not idempotent by
// request id: the name is the identity), or name_unavailable when the
// caller does not see the board that has it, or it is in the trash
// (access.Unavailable). The summary covers the whole new scene, and so
// does its lint (what a write's envelope says of the elements it made).
func (s *Service) Create(ctx context.Context, r CreateRequest) (*WriteResult, error) {
	if err := store.ValidName(r.Name); err != nil {
		return nil, mapError(err)
	}
	doc := scene.NewDocument()
	if _, err := s.edit(doc, func(tx *engine.Txn) error {
		if err := tx.MergeAppState(r.AppState, "/app_state"); err != nil {
			return err
		}
		if err := tx.SetFiles(r.Files, "/files"); err != nil {
			return err
		}
		_, err := tx.Add(r.Elements, "/elements")
		return err
	}); err != nil {
		return nil, mapError(err)
	}
	data, err := s.finish(doc)
	if err != nil {
		return nil, err
	}
	cctx, span := startSpan(ctx, spanCommit, r.Name)
	out, err := s.store.Create(cctx, store.CreateRequest{Name: r.Name, Data: data, Actor: actorOr(r.Actor, store.ActorAgent), RequestID: r.RequestID,
		Attribution: r.Attribution})
	endCommit(span, out, err)
	if err != nil {
		return nil, mapError(err)
	}
	s.committed(out)
	wr := writeResult(out)
	wr.Summary = summarize(doc, "", nil)
	if ids := liveIDs(doc); len(ids) > 0 {
		wr.Lint = lintDelta(scene.NewDocument(), doc, ids, true)
	}
	return wr, nil
}

// actorOr defaults an unset actor: each entry point knows who calls it.
func actorOr(a, def store.Actor) store.Actor {
	if a == "" {
		return def
	}
	return a
}

// liveIDs are the ids of doc's live elements.
func liveIDs(doc *scene.Document) []string {
	var ids []string
	for _, el := range doc.Elements() {
		if id, _ := el.String("id"); id != "" && !scene.IsDeleted(el) {
			ids = append(ids, id)
		}
	}
	return ids
}
