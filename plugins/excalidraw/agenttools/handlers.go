package agenttools

import (
	"context"
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/tools"
)

// handlers binds the tool handlers to one service. Each takes its
// arguments as the struct its schema describes (see tools.Typed: the
// registry has validated them, and a member the struct lacks is refused,
// not dropped).
type handlers struct{ svc *service.Service }

type listResult struct {
	Scenes []service.SceneSummary `json:"scenes"`
}

type readArgs struct {
	Name        string `json:"name"`
	Include     string `json:"include"`
	ElementType string `json:"element_type"`
}

type createArgs struct {
	Name      string            `json:"name"`
	Elements  []json.RawMessage `json:"elements"`
	AppState  json.RawMessage   `json:"app_state"`
	Files     json.RawMessage   `json:"files"`
	RequestID string            `json:"request_id"`
}

type applyArgs struct {
	Name             string            `json:"name"`
	ExpectedRevision int64             `json:"expected_revision"`
	Operations       []json.RawMessage `json:"operations"`
	AppState         json.RawMessage   `json:"app_state"`
	RequestID        string            `json:"request_id"`
}

type validateArgs struct {
	Scene json.RawMessage `json:"scene"`
}

func (h handlers) list(ctx context.Context, _ struct{}) (any, error) {
	rows, err := h.svc.List(ctx)
	if err != nil {
		return nil, toolError(err)
	}
	if rows == nil {
		rows = []service.SceneSummary{}
	}
	return listResult{Scenes: rows}, nil
}

func (h handlers) read(ctx context.Context, a readArgs) (any, error) {
	res, err := h.svc.Read(ctx, service.ReadRequest{Name: a.Name, Include: a.Include, ElementType: a.ElementType})
	if err != nil {
		return nil, toolError(err)
	}
	return res, nil
}

func (h handlers) create(ctx context.Context, a createArgs) (any, error) {
	res, err := h.svc.Create(ctx, service.CreateRequest{
		Name: a.Name, Elements: a.Elements, AppState: a.AppState, Files: a.Files,
		RequestID: a.RequestID, Actor: store.ActorAgent, Attribution: attribution(ctx),
	})
	if err != nil {
		return nil, toolError(err)
	}
	return res, nil
}

func (h handlers) apply(ctx context.Context, a applyArgs) (any, error) {
	res, err := h.svc.Apply(ctx, service.ApplyRequest{
		Name: a.Name, ExpectedRevision: a.ExpectedRevision, Operations: a.Operations,
		AppState: a.AppState, RequestID: a.RequestID, Actor: store.ActorAgent, Attribution: attribution(ctx),
	})
	if err != nil {
		return nil, toolError(err)
	}
	return res, nil
}

// staleRefusal is a write tool's tools.Tool.Refuse: a call whose
// expected_revision is not the scene's current revision gets the
// revision_conflict its write would meet, told from the scene's head
// (service.Service.Stale) before its operations or elements are checked
// against the schema, decoded or linted. A call with a request_id (a
// retry may be a duplicate, answered with its result), or whose name or
// expected_revision is missing or not what the schema asks, goes on to
// the schema and the write as before; a stale call's other arguments are
// not looked at, so it is a revision_conflict even where they are wrong.
// Without a service (tools listed, not served) there is none.
func staleRefusal(svc *service.Service) func(context.Context, json.RawMessage) error {
	if svc == nil {
		return nil
	}
	return func(ctx context.Context, raw json.RawMessage) error {
		var top map[string]json.RawMessage
		if json.Unmarshal(raw, &top) != nil {
			return nil
		}
		if _, ok := top["request_id"]; ok {
			return nil
		}
		var name *string
		var rev *int64
		if json.Unmarshal(top["name"], &name) != nil || json.Unmarshal(top["expected_revision"], &rev) != nil ||
			name == nil || rev == nil || *rev < 0 {
			return nil
		}
		if err := svc.Stale(ctx, *name, *rev); err != nil {
			return toolError(err)
		}
		return nil
	}
}

func (h handlers) validate(_ context.Context, a validateArgs) (any, error) {
	rep := h.svc.Validate(a.Scene)
	if rep.Diagnostics == nil {
		// The contract promises an array; a clean scene has an empty one.
		rep.Diagnostics = []scene.Diagnostic{}
	}
	return rep, nil
}

// toolError turns a service error (a *sceneerr.Error, the host's coded
// error) into a tool error with the same code, message and details, so
// the agent sees the contract's stable code. Anything else is passed
// through and the registry reports it as internal_error without leaking
// its text.
func toolError(err error) error {
	if te, ok := tools.FromError(err); ok {
		c := *te // FromError may hand back an error others hold
		c.Retryable, c.RetryAfterSec = sceneerr.Code(c.Code).Retry()
		// An error may know better than its code: a quota says when
		// (retryAfterSec), a cap that only time will not lift says never.
		if d, ok := c.Details.(map[string]any); ok {
			if after, ok := d["retryAfterSec"].(int); ok {
				c.RetryAfterSec = after
			}
			if r, ok := d["retryable"].(bool); ok && !r {
				c.Retryable, c.RetryAfterSec = false, 0
			}
		}
		return &c
	}
	return err
}
