package service

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strconv"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
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
}

// Create writes a new scene at revision 1. The name is checked first, so
// a bad name is invalid_name whatever else is wrong; then the app state
// (cheap, and refused before attachments are decoded or elements built);
// an existing name is already_exists (creating is not idempotent by
// request id: the name is the identity). The summary covers the whole new
// scene.
func (s *Service) Create(ctx context.Context, r CreateRequest) (*WriteResult, error) {
	if err := store.ValidName(r.Name); err != nil {
		return nil, mapError(err)
	}
	doc := scene.NewDocument()
	if err := mergeAppState(doc, r.AppState, "/app_state"); err != nil {
		return nil, err
	}
	if err := setFiles(doc, r.Files, "/files"); err != nil {
		return nil, err
	}
	res, err := s.build(r.Elements, doc)
	if err != nil {
		return nil, prefixBuildError(err, func(i int) string { return "/elements/" + strconv.Itoa(i) })
	}
	doc.SetElements(res.Elements)
	data, err := s.finish(doc)
	if err != nil {
		return nil, err
	}
	out, err := s.store.Create(ctx, store.CreateRequest{Name: r.Name, Data: data, Actor: actorOr(r.Actor, store.ActorAgent), RequestID: r.RequestID})
	if err != nil {
		return nil, mapError(err)
	}
	s.committed(out)
	wr := writeResult(out)
	wr.Summary = summarize(doc, "", nil)
	return wr, nil
}

// actorOr defaults an unset actor: each entry point knows who calls it.
func actorOr(a, def store.Actor) store.Actor {
	if a == "" {
		return def
	}
	return a
}

// build runs build.Build for inputs going into doc, with the service's
// clock, random source and text limit.
func (s *Service) build(inputs []json.RawMessage, doc *scene.Document) (*build.Result, error) {
	var (
		res *build.Result
		err error
	)
	s.withRand(func(r *rand.Rand) {
		res, err = build.Build(inputs, build.Context{
			Existing: doc.Elements(), FileIDs: fileIDs(doc), Rand: r, Now: s.now, MaxTextLength: s.limits.MaxTextLength,
		})
	})
	return res, err
}
