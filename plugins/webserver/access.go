package webserver

import (
	"context"
	"crypto/rand"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// accessNote is what the layers inside a request learn about it for its
// access line and span: the route pattern that took it (never the raw
// path) and who it acts for, once admission has said.
type accessNote struct {
	route string
	who   identity.Principal
	known bool // who is set
}

// accessKey carries a request's *accessNote in its context.
type accessKey struct{}

// noteOf is the request's note, nil outside noteRequests.
func noteOf(ctx context.Context) *accessNote {
	n, _ := ctx.Value(accessKey{}).(*accessNote)
	return n
}

// noteRoute records the route pattern that took the request.
func noteRoute(ctx context.Context, pattern string) {
	if n := noteOf(ctx); n != nil {
		n.route = pattern
	}
}

// noteWho records who the admitted request acts for.
func noteWho(ctx context.Context) {
	if n := noteOf(ctx); n != nil {
		n.who, n.known = identity.From(ctx)
	}
}

// noteRequests runs right after the request id is assigned: it puts the
// id in the request's context (apierr.RequestID) and header (so handlers
// mounted as plain http.Handlers, the MCP transport among them, see the
// id the response carries), hangs the request's note on its context, and
// traces the request when the server has a tracer (tracing.go).
func (s *Server) noteRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		id := c.Response().Header().Get(echo.HeaderXRequestID)
		if !validRequestID(id) {
			// A caller's id that logs, error details and the journal
			// should not carry: replaced by one of ours.
			id = rand.Text()
			c.Response().Header().Set(echo.HeaderXRequestID, id)
		}
		req.Header.Set(apierr.HeaderRequestID, id)
		note := &accessNote{route: RouteUnmatched}
		ctx := context.WithValue(apierr.WithRequestID(req.Context(), id), accessKey{}, note)
		c.SetRequest(req.WithContext(ctx))
		if t := s.tracer.Load(); t != nil {
			return s.traced(c, *t, note, id, next)
		}
		return next(c)
	}
}

// noteFields are the access line's fields from n: the route and, when
// admission named one, the principal's kind and name.
func noteFields(n *accessNote) []zap.Field {
	if n == nil {
		return nil
	}
	if !n.known {
		return []zap.Field{zap.String("route", n.route)}
	}
	return []zap.Field{zap.String("route", n.route),
		zap.String("principal_kind", n.who.Kind), zap.String("principal", n.who.Name)}
}

// withRequestID is details with the request's id added
// (apierr.DetailRequestID), a copy: details may be an error's own map.
func withRequestID(details map[string]any, id string) map[string]any {
	if id == "" {
		return details
	}
	out := make(map[string]any, len(details)+1)
	for k, v := range details {
		out[k] = v
	}
	out[apierr.DetailRequestID] = id
	return out
}

// maxRequestID bounds a caller's X-Request-ID.
const maxRequestID = 128

// validRequestID reports whether id is one to keep: 1 to maxRequestID
// bytes of printable ASCII without spaces.
func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestID {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] > '~' {
			return false
		}
	}
	return true
}
