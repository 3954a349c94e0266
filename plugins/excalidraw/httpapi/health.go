package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/identity"
)

// healthBody is GET /health: what the host is running with, and what the
// editors last reported, in one place for diagnostics and E2E tests.
// Editors holds the boards the caller may read, by name, and no other;
// DrawingsDir (a path on the host's disk) is shown to admins only: the
// host's owner in person, a host token, the process itself.
type healthBody struct {
	OK          bool                   `json:"ok"`
	Version     string                 `json:"version"`
	DrawingsDir string                 `json:"drawingsDir,omitempty"`
	Limits      any                    `json:"limits"`
	Editors     map[string]EditorState `json:"editors"`
}

func health(o Options) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		who := identity.Of(ctx)
		out := healthBody{OK: true, Version: o.Version, Limits: o.Limits, Editors: map[string]EditorState{}}
		if who.Admin && !who.IsBot() {
			out.DrawingsDir = o.DrawingsDir
		}
		for _, name := range o.Evidence.Boards() {
			if o.Service.May(ctx, name, access.Read) == nil {
				out.Editors[name] = o.Evidence.Snapshot(name)
			}
		}
		return ok(c, http.StatusOK, out)
	}
}

// editorStatus is POST /editor-status. Evidence is the editor's, in a
// browser: only a person's session (or a trusted proxy's) may report it,
// and only for a board it may write (a viewer's editor saves nothing);
// a token, a bot's included, is refused before the board is looked at,
// and a board the caller does not reach, or that does not exist, is
// not_found. It answers with the recorded event so the page can see its
// report was accepted as sent.
func editorStatus(o Options) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		if who := identity.Of(ctx); (who.Kind != identity.KindSession && who.Kind != identity.KindProxy) || who.IsBot() {
			return sceneerr.New(sceneerr.PermissionDenied, "editor evidence is reported by the editor, in a browser signed in as a person; a token cannot report it")
		}
		var s Status
		if err := decodeBody(c, &s); err != nil {
			return err
		}
		if err := s.Validate(); err != nil {
			return err
		}
		if err := o.Service.May(ctx, s.Name, access.Write); err != nil {
			return err
		}
		if _, err := o.Service.Head(ctx, s.Name); err != nil {
			return err // no such board: not_found, as for one it does not reach
		}
		rec, err := o.Evidence.Record(s)
		if err != nil {
			return err
		}
		return ok(c, http.StatusOK, rec)
	}
}
