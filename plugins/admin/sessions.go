package admin

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// SessionsResponse is what GET /api/admin/sessions returns: the live
// browser sessions, without their hashes.
type SessionsResponse struct {
	Sessions []connection.SessionInfo `json:"sessions"`
}

// RevokedResponse is what the DELETE /api/admin/sessions routes return.
type RevokedResponse struct {
	Revoked int `json:"revoked"`
}

func (a *api) listSessions(c echo.Context) error {
	list, err := a.conn.ListSessions(c.Request().Context())
	if err != nil {
		return sessionsUnavailable(err)
	}
	return c.JSON(http.StatusOK, SessionsResponse{Sessions: list})
}

func (a *api) revokeSession(c echo.Context) error {
	err := a.conn.RevokeSession(c.Request().Context(), c.Param("id"))
	switch {
	case errors.Is(err, connection.ErrSessionNotFound):
		return webserver.NewError(http.StatusNotFound, "unknown_session", "no live session has id "+strconv.Quote(c.Param("id")))
	case err != nil:
		return sessionsUnavailable(err)
	}
	return c.JSON(http.StatusOK, RevokedResponse{Revoked: 1})
}

func (a *api) revokeAllSessions(c echo.Context) error {
	n, err := a.conn.RevokeAllSessions(c.Request().Context())
	if err != nil {
		return sessionsUnavailable(err)
	}
	return c.JSON(http.StatusOK, RevokedResponse{Revoked: n})
}

// sessionsUnavailable reports a sessions file that cannot be read or
// written. The cause (paths) stays on the error: the web server logs a
// coded 500 with it and shows the client only the message.
func sessionsUnavailable(err error) error {
	return webserver.NewError(http.StatusInternalServerError, "sessions_unavailable",
		"the sessions file could not be read or written; see the host's log").Wrap(err)
}
