package admin

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/internal/kernel"
	"github.com/dshgo/dsh/plugins/webserver"
)

func (a *api) listEntries(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"plugins": a.entries.List()})
}

func (a *api) listScopes(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"scopes": a.rt.Scopes()})
}

func (a *api) listServices(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"services": a.rt.Services()})
}

// adminActionTimeout bounds one load/unload/reload; teardown itself keeps
// going past it (it is never cut short), the response just stops waiting.
const adminActionTimeout = 60 * time.Second

func (a *api) act(c echo.Context) error {
	id, action := c.Param("id"), c.Param("action")
	var op func(context.Context, string) error
	switch action {
	case "load":
		op = a.entries.Load
	case "unload":
		op = a.entries.Unload
	case "reload":
		op = a.entries.Reload
	default:
		return webserver.NewError(http.StatusBadRequest, "invalid_action", "action must be load, unload or reload")
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), adminActionTimeout)
	defer cancel()
	err := op(ctx, id)
	switch {
	case errors.Is(err, kernel.ErrUnknownEntry):
		return webserver.NewError(http.StatusNotFound, "unknown_entry", err.Error())
	case err != nil:
		return webserver.NewError(http.StatusConflict, "plugin_failed", err.Error())
	}
	for _, row := range a.entries.List() {
		if row.ID == id {
			return c.JSON(http.StatusOK, map[string]any{"plugin": row})
		}
	}
	return c.JSON(http.StatusOK, map[string]any{})
}
