package metrics

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/admin"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Endpoint is the built-in plugin that serves GET /metrics on the host's
// web server, to admins only (admin.Only: the owner in person or a host
// token; 401 without a credential, 403 admin_required for anyone else).
// It waits for webServer, so a headless host has no such route.
func Endpoint(s *Service) app.Plugin {
	return app.Plugin{
		Name:   "metrics",
		Inject: []app.Dep{app.Need(webserver.ServiceName), app.Need(connection.ServiceName)},
		Apply: func(ctx *app.Context, _ app.Config) error {
			return webserver.Use(ctx, webserver.Route{Method: http.MethodGet, Path: Path, Handler: admin.Only(echo.WrapHandler(s.Handler()))})
		},
	}
}
