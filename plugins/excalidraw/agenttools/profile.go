package agenttools

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// SetBoardProfileTool sets or reads back a board's or a folder's style
// contract.
const SetBoardProfileTool = "set_board_profile"

// profileSchema is set_board_profile's input: the scope, and the profile
// to put there (null or {} clears; left out reads back). Ranges are
// checked by profile.Check, which points at the faulty field.
const profileSchema = `{"type":"object","additionalProperties":false,"required":["scope"],"properties":{` +
	`"scope":{"type":"object","additionalProperties":false,"properties":{"board":{"type":"string","maxLength":256},"folder":{"type":"string","maxLength":64}}},` +
	`"profile":{"type":["object","null"],"additionalProperties":false,"properties":{` +
	`"typeScale":{"type":"object","additionalProperties":{"type":"number"}},` +
	`"fontFamily":{"type":"integer"},"spacing":{"type":"number"},` +
	`"roles":{"type":"object","additionalProperties":{"type":"object","additionalProperties":false,"properties":{"stroke":{"type":"string"},"fill":{"type":"string"},"meaning":{"type":"string"}}}},` +
	`"strokes":{"type":"object","additionalProperties":{"type":"string"}},` +
	`"noWrap":{"type":"array","items":{"type":"string"}}}}}}`

func profileTools(svc *service.Service) []tools.Tool {
	h := profileHandlers{svc: svc}
	return []tools.Tool{{Name: SetBoardProfileTool,
		Description: "Set a board's or folder's style profile (type scale, spacing, role colours and meanings); scope alone reads it back.",
		InputSchema: json.RawMessage(profileSchema),
		ListedSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["scope"],"properties":{` +
			`"scope":{"type":"object","description":"{board: name} or {folder: id}"},` +
			`"profile":{"type":["object","null"],"description":"typeScale, fontFamily, spacing, roles, strokes, noWrap: see read_me; null clears, absent reads"}}}`),
		Annotations: tools.Annotations{Title: "Set a board profile", Idempotent: true},
		Handler:     tools.Typed(h.set), InvalidArgumentsCode: invalidArguments}}
}

type profileHandlers struct{ svc *service.Service }

type profileArgs struct {
	Scope   service.ProfileScope `json:"scope"`
	Profile json.RawMessage      `json:"profile,omitempty"`
}

func (h profileHandlers) set(ctx context.Context, a profileArgs) (any, error) {
	r := service.SetBoardProfileRequest{Scope: a.Scope}
	if len(a.Profile) > 0 {
		p := profile.Profile{}
		if !bytes.Equal(bytes.TrimSpace(a.Profile), []byte("null")) {
			dec := json.NewDecoder(bytes.NewReader(a.Profile))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&p); err != nil {
				return nil, toolError(sceneerr.New(sceneerr.InvalidOperation, "profile: %v", err).With("pointer", "/profile"))
			}
		}
		r.Profile = &p
	}
	res, err := h.svc.SetBoardProfile(ctx, r)
	if err != nil {
		return nil, toolError(err)
	}
	return res, nil
}
