package mcpserve

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Path is the Streamable HTTP endpoint agents connect to.
const Path = "/mcp"

// Principals names the credential admission let a request in with;
// *connection.Service is one.
type Principals interface {
	Principal(r *http.Request) (connection.Principal, bool)
}

// Endpoint is the built-in plugin that serves the tools registry over
// MCP Streamable HTTP at [Path]. It waits for webServer, so a headless
// host simply has no HTTP endpoint (stdio still works).
//
// Admission runs before the handler like on every route (Host, Origin,
// credential); the handler then tells the MCP server who the request is
// from (the bearer token's or browser session's principal, see
// connection.Principal), so sessions are capped per credential and a
// session is served only to the credential that opened it.
func Endpoint(m *Server) app.Plugin {
	return app.Plugin{
		Name:   "mcp",
		Inject: []app.Dep{app.Need(webserver.ServiceName), app.Need(tools.ServiceName), app.Need(connection.ServiceName)},
		Apply: func(ctx *app.Context, _ app.Config) error {
			who, err := app.Get[Principals](ctx, connection.ServiceName)
			if err != nil {
				return err
			}
			// A revoked credential's sessions close at once (its open
			// requests end with admission's binding).
			if r, ok := who.(Revocations); ok {
				stop := r.OnRevoke(func(p connection.Principal) { m.CloseSessionsOf(p.String()) })
				if _, err := ctx.Effect("stop closing revoked MCP sessions", func(context.Context) error { stop(); return nil }); err != nil {
					stop()
					return err
				}
			}
			h := echo.WrapHandler(withSessionOwner(who, m.HTTPHandler()))
			return webserver.Use(ctx, webserver.Route{Method: "*", Path: Path, Handler: h, Stream: true})
		},
	}
}

// Revocations tells of revoked credentials; *connection.Service does.
type Revocations interface {
	OnRevoke(fn func(connection.Principal)) (stop func())
}

// withSessionOwner marks each request with its principal before next
// serves it: the one admission marked it with (identity.With), else the
// one its credential names. Admission has let the request in, so it has
// one; a request without (which admission would have refused) is left
// unmarked.
func withSessionOwner(who Principals, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := identity.From(r.Context())
		if !ok {
			p, ok = who.Principal(r)
		}
		if ok {
			r = r.WithContext(identity.With(WithSessionOwner(r.Context(), p.String()), p))
		}
		next.ServeHTTP(w, r)
	})
}
