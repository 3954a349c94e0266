package admin

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"
)

// PersonInfo is what the admin API tells about a person: never their
// password's hash nor their invite's.
type PersonInfo struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
	Owner bool   `json:"owner,omitempty"`
}

// RemovedPersonResponse is what DELETE /api/admin/people/:name returns.
type RemovedPersonResponse struct {
	Removed PersonInfo `json:"removed"`
}

// removePerson is `dsh user rm`: the account goes, and at once every
// request and MCP session of the person's and of their bots ends. An
// unknown name is 404 not_found, the owner 400 invalid_operation (the
// accounts' own codes).
func (a *api) removePerson(c echo.Context) error {
	p, err := a.conn.RemovePerson(c.Request().Context(), c.Param("name"))
	if err != nil {
		return err
	}
	a.log.Info("person removed through the admin API", zap.String("name", p.Name), zap.String("id", p.ID))
	return c.JSON(http.StatusOK, RemovedPersonResponse{Removed: PersonInfo{ID: p.ID, Name: p.Name, Email: p.Email, Owner: p.Owner}})
}
