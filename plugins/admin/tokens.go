package admin

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// TokenInfo is what the admin API tells about a token: never its hash.
type TokenInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Person string `json:"person,omitempty"`
	Bot    bool   `json:"bot,omitempty"`
}

// RevokedTokenResponse is what DELETE /api/admin/tokens/:id returns.
type RevokedTokenResponse struct {
	Revoked TokenInfo `json:"revoked"`
}

// revokeToken is `dsh token revoke` with a host running: the token (by id
// or name) is deleted and its open requests and MCP sessions end at once.
func (a *api) revokeToken(c echo.Context) error {
	rec, err := a.conn.RevokeToken(c.Request().Context(), c.Param("id"))
	switch {
	case errors.Is(err, connection.ErrTokenNotFound):
		return webserver.NewError(http.StatusNotFound, "unknown_token", "no token has the id or name "+strconv.Quote(c.Param("id")))
	case err != nil:
		return webserver.NewError(http.StatusInternalServerError, "tokens_unavailable",
			"the token file could not be read or written; see the host's log").Wrap(err)
	}
	return c.JSON(http.StatusOK, RevokedTokenResponse{Revoked: TokenInfo{ID: rec.ID, Name: rec.Name, Person: rec.Person, Bot: rec.Bot()}})
}
