package webserver

import (
	"net/http"

	"github.com/dshgo/dsh/plugins/webserver/connection"
	"github.com/labstack/echo/v4"
)

// rejection asks the current admission service about r. No service means
// no decision, and no decision means no: fail closed.
func (s *Server) rejection(r *http.Request) *connection.Rejection {
	if s.admission == nil {
		return connection.Unavailable()
	}
	a := s.admission()
	if a == nil {
		return connection.Unavailable()
	}
	return a.RequestRejection(r)
}

// guard wraps a route's handler with what every plugin request needs:
// in-flight tracking for the mount (so Unmount can drain it) and, unless the
// route is public, admission. The gate is entered first: a request that
// matched a table published just before its mount was removed is turned
// away with 404, exactly like one that arrived a moment later.
func (s *Server) guard(m *Mount, rt Route) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !m.gate.enter() {
			return echo.ErrNotFound
		}
		defer m.gate.leave()
		if !rt.Public {
			if rej := s.rejection(c.Request()); rej != nil {
				return rej
			}
		}
		return rt.Handler(c)
	}
}
