package kernel

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/webserver"
)

// AdminPrefix is where the admin API is mounted.
const AdminPrefix = "/api/admin"

// AdminAPI is the built-in plugin behind `dsh plugins …`: it lists scopes
// and entries and loads, unloads or reloads entries at runtime. Its routes
// are admitted like any other (a bearer token or a browser session).
func AdminAPI(entries *Entries, rt *app.Runtime) app.Plugin {
	return app.Plugin{
		Name:   "admin",
		Inject: []app.Dep{app.Need(webserver.ServiceName)},
		Apply: func(ctx *app.Context, _ app.Config) error {
			a := &admin{entries: entries, rt: rt}
			return webserver.Use(ctx,
				webserver.Route{Method: http.MethodGet, Path: AdminPrefix + "/plugins", Handler: a.listEntries},
				webserver.Route{Method: http.MethodGet, Path: AdminPrefix + "/scopes", Handler: a.listScopes},
				webserver.Route{Method: http.MethodGet, Path: AdminPrefix + "/services", Handler: a.listServices},
				webserver.Route{Method: http.MethodPost, Path: AdminPrefix + "/plugins/:id/:action", Handler: a.act},
			)
		},
	}
}

type admin struct {
	entries *Entries
	rt      *app.Runtime
}

func (a *admin) listEntries(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"plugins": a.entries.List()})
}

func (a *admin) listScopes(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"scopes": a.rt.Scopes()})
}

func (a *admin) listServices(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]any{"services": a.rt.Services()})
}

// adminActionTimeout bounds one load/unload/reload; teardown itself keeps
// going past it (it is never cut short), the response just stops waiting.
const adminActionTimeout = 60 * time.Second

func (a *admin) act(c echo.Context) error {
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
		return apiError(c, http.StatusBadRequest, "invalid_action", "action must be load, unload or reload")
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), adminActionTimeout)
	defer cancel()
	err := op(ctx, id)
	switch {
	case errors.Is(err, ErrUnknownEntry):
		return apiError(c, http.StatusNotFound, "unknown_entry", err.Error())
	case err != nil:
		return apiError(c, http.StatusConflict, "plugin_failed", err.Error())
	}
	for _, row := range a.entries.List() {
		if row.ID == id {
			return c.JSON(http.StatusOK, map[string]any{"plugin": row})
		}
	}
	return c.JSON(http.StatusOK, map[string]any{})
}

func apiError(c echo.Context, status int, code, msg string) error {
	return c.JSON(status, map[string]any{"error": map[string]string{"code": code, "message": msg}})
}
