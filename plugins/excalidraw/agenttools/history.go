package agenttools

import (
	"context"

	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// The history tools.
const (
	LogTool     = "board_log"
	RestoreTool = "restore"
)

// historyTools read a scene's journal and put commits back.
func historyTools(svc *service.Service) []tools.Tool {
	h := historyHandlers{svc: svc}
	return []tools.Tool{
		{Name: LogTool, Description: "A scene's history, newest first: who changed what, through which tool, with their note; filter by actor, element, time or revision.",
			InputSchema: schema([]string{"name"}, sName, `"actor":{"type":"string","maxLength":128}`, `"element":{"type":"string","maxLength":256}`,
				`"since":{"type":"string","maxLength":40}`, `"until":{"type":"string","maxLength":40}`,
				`"min_revision":{"type":"integer","minimum":0}`, `"max_revision":{"type":"integer","minimum":0}`,
				`"limit":{"type":"integer","minimum":1,"maximum":200}`, `"cursor":{"type":"string","maxLength":512}`, `"ids":{"enum":["some","all","none"]}`),
			Annotations: tools.Annotations{Title: "Scene history", ReadOnly: true, Idempotent: true}, Handler: tools.Typed(h.log)},
		{Name: RestoreTool, Description: "Take back a commit from board_log as a new commit: revert undoes only its changes, restore puts its elements back as they were.",
			InputSchema: writeSchema([]string{"from"}, `"from":{"type":"string","maxLength":64}`, `"mode":{"enum":["revert","restore"]}`, sIDs),
			Annotations: tools.Annotations{Title: "Restore or revert a commit", Destructive: true}, Handler: tools.Typed(h.restore)},
	}
}

type historyHandlers struct{ svc *service.Service }

type logArgs struct {
	Name        string `json:"name"`
	Actor       string `json:"actor,omitempty"`
	Element     string `json:"element,omitempty"`
	Since       string `json:"since,omitempty"`
	Until       string `json:"until,omitempty"`
	MinRevision int64  `json:"min_revision,omitempty"`
	MaxRevision int64  `json:"max_revision,omitempty"`
	Limit       int    `json:"limit,omitempty"`
	Cursor      string `json:"cursor,omitempty"`
	IDs         string `json:"ids,omitempty"`
}

func (h historyHandlers) log(ctx context.Context, a logArgs) (any, error) {
	res, err := h.svc.Log(ctx, service.LogRequest{Name: a.Name, Cursor: a.Cursor, Actor: a.Actor, Element: a.Element,
		Since: a.Since, Until: a.Until, MinRevision: a.MinRevision, MaxRevision: a.MaxRevision, Limit: a.Limit, IDs: a.IDs})
	if err != nil {
		return nil, toolError(err)
	}
	return res, nil
}

type restoreArgs struct {
	writeArgs
	From string   `json:"from"`
	Mode string   `json:"mode,omitempty"`
	IDs  []string `json:"ids,omitempty"`
}

func (h historyHandlers) restore(ctx context.Context, a restoreArgs) (any, error) {
	w := a.request(ctx)
	env, err := h.svc.Restore(ctx, service.RestoreRequest{Name: w.Name, From: a.From, Mode: a.Mode, IDs: a.IDs,
		ExpectedRevision: w.ExpectedRevision, RequestID: w.RequestID, Options: w.Options, Actor: w.Actor, Attribution: w.Attribution})
	if err != nil {
		return nil, toolError(err)
	}
	return env, nil
}
