package admin

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/kernel"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// AdminPrefix is where the admin API is mounted.
const AdminPrefix = "/api/admin"

// CodeAdminRequired is the admin API's refusal of a principal that is not
// an admin: a person other than the host's owner, or a bot.
const CodeAdminRequired = "admin_required"

// Plugin is the built-in plugin behind `dsh plugins …`, `dsh login`,
// `dsh sessions …`, `dsh user rm` and `dsh token revoke`: it lists scopes
// and entries and loads, unloads or reloads entries at runtime, mints
// login links, lists and revokes browser sessions, removes people and
// revokes tokens. Its routes are admitted like any other (a bearer token
// or a browser session), and then serve admins only: the host's owner in
// person or a host token, never another person nor a bot (connect token),
// whatever their rights on boards (see adminOnly). Minting login links
// additionally needs a bearer token (see connection.Service.RequireBearer).
func Plugin(entries *kernel.Entries, rt *app.Runtime) app.Plugin {
	return app.Plugin{
		Name:   "admin",
		Inject: []app.Dep{app.Need(webserver.ServiceName), app.Need(connection.ServiceName)},
		Apply: func(ctx *app.Context, _ app.Config) error {
			web, err := app.Get[*webserver.Server](ctx, webserver.ServiceName)
			if err != nil {
				return err
			}
			conn, err := app.Get[*connection.Service](ctx, connection.ServiceName)
			if err != nil {
				return err
			}
			a := &api{entries: entries, rt: rt, web: web, conn: conn, log: ctx.Logger()}
			routes := []webserver.Route{
				{Method: http.MethodGet, Path: AdminPrefix + "/plugins", Handler: a.listEntries},
				{Method: http.MethodGet, Path: AdminPrefix + "/scopes", Handler: a.listScopes},
				{Method: http.MethodGet, Path: AdminPrefix + "/services", Handler: a.listServices},
				{Method: http.MethodPost, Path: AdminPrefix + "/plugins/:id/:action", Handler: a.act},
				{Method: http.MethodPost, Path: AdminPrefix + "/login-links", Handler: a.mintLoginLink},
				{Method: http.MethodGet, Path: AdminPrefix + "/sessions", Handler: a.listSessions},
				{Method: http.MethodDelete, Path: AdminPrefix + "/sessions", Handler: a.revokeAllSessions},
				{Method: http.MethodDelete, Path: AdminPrefix + "/sessions/:id", Handler: a.revokeSession},
				{Method: http.MethodDelete, Path: AdminPrefix + "/people/:name", Handler: a.removePerson},
				{Method: http.MethodDelete, Path: AdminPrefix + "/tokens/:id", Handler: a.revokeToken},
			}
			routes = append(routes, pprofRoutes()...)
			for i := range routes {
				routes[i].Handler = adminOnly(routes[i].Handler)
			}
			return webserver.Use(ctx, routes...)
		},
	}
}

// adminOnly lets through only an admin that is not a bot: the host's
// owner (their session), a host token, the process itself. Anyone else
// admission let in — a member's session, any connect token, the owner's
// own bots included — gets 403 admin_required. A request no admission
// marked with its principal is refused too: the admin API fails closed.
func adminOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p, ok := identity.From(c.Request().Context())
		if !ok || !p.Admin || p.Grant != nil {
			return webserver.NewError(http.StatusForbidden, CodeAdminRequired, "this needs the host's owner or a host token")
		}
		return next(c)
	}
}

// api is one mounted admin API: what its handlers act on.
type api struct {
	entries *kernel.Entries
	rt      *app.Runtime
	web     *webserver.Server
	conn    *connection.Service
	log     *zap.Logger
}
