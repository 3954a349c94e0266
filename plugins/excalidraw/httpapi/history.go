package httpapi

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// log is GET /scenes/:name/log: a page of the scene's history, newest
// first. Query parameters: cursor, actor, element, since, until,
// min_revision, max_revision, limit, ids (some | all | none; default all,
// since the page highlights what an entry touched).
func (h scenes) log(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	q := c.QueryParams()
	r := service.LogRequest{Name: name, Cursor: q.Get("cursor"), Actor: q.Get("actor"), Element: q.Get("element"),
		Since: q.Get("since"), Until: q.Get("until"), IDs: q.Get("ids")}
	if r.IDs == "" {
		r.IDs = service.LogIDsAll
	}
	for _, p := range []struct {
		key string
		dst *int64
	}{{"min_revision", &r.MinRevision}, {"max_revision", &r.MaxRevision}} {
		if v := q.Get(p.key); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return badRequest("/"+p.key, "%s must be a revision number", p.key)
			}
			*p.dst = n
		}
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > store.MaxLogLimit {
			return badRequest("/limit", "limit must be 1 to %d", store.MaxLogLimit)
		}
		r.Limit = n
	}
	res, err := h.svc.Log(c.Request().Context(), r)
	if err != nil {
		return err
	}
	return ok(c, http.StatusOK, res)
}

// restoreBody is POST /scenes/:name/restore.
type restoreBody struct {
	From             string   `json:"from"`
	Mode             string   `json:"mode,omitempty"`
	IDs              []string `json:"ids,omitempty"`
	ExpectedRevision *int64   `json:"expected_revision,omitempty"`
	RequestID        string   `json:"request_id,omitempty"`
	Note             string   `json:"note,omitempty"`
	DryRun           bool     `json:"dryRun,omitempty"`
}

// restore is POST /scenes/:name/restore: "Undo this change" (mode
// revert) and "bring my version back" from the editor, as the person.
func (h scenes) restore(c echo.Context) error {
	name, err := nameParam(c)
	if err != nil {
		return err
	}
	var b restoreBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	env, err := h.svc.Restore(c.Request().Context(), service.RestoreRequest{
		Name: name, From: b.From, Mode: b.Mode, IDs: b.IDs, ExpectedRevision: b.ExpectedRevision, RequestID: b.RequestID,
		Options: service.WriteOptions{Note: b.Note, DryRun: b.DryRun}, Actor: store.ActorUI,
		Attribution: store.Attribution{Via: ViaEditor},
	})
	if err != nil {
		return err
	}
	return ok(c, http.StatusOK, env)
}
