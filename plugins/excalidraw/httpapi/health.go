package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// healthBody is GET /health: what the host is running with, and what the
// editor last reported, in one place for diagnostics and E2E tests.
type healthBody struct {
	OK          bool        `json:"ok"`
	Version     string      `json:"version"`
	DrawingsDir string      `json:"drawingsDir"`
	Limits      any         `json:"limits"`
	Editor      EditorState `json:"editor"`
}

func health(o Options) echo.HandlerFunc {
	return func(c echo.Context) error {
		return ok(c, http.StatusOK, healthBody{
			OK: true, Version: o.Version, DrawingsDir: o.DrawingsDir, Limits: o.Limits, Editor: o.Evidence.Snapshot(),
		})
	}
}

// editorStatus is POST /editor-status. It answers with the recorded event
// so the page can see its report was accepted as sent.
func editorStatus(ev *Evidence) echo.HandlerFunc {
	return func(c echo.Context) error {
		var s Status
		if err := decodeBody(c, &s); err != nil {
			return err
		}
		rec, err := ev.Record(s)
		if err != nil {
			return err
		}
		return ok(c, http.StatusOK, rec)
	}
}
