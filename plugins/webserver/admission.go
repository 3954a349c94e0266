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

// admit is rejection with the admitted request marked with its principal
// and bound to its credential (connection.Binder), when the admission
// service can; otherwise the request as it came.
func (s *Server) admit(r *http.Request) (*http.Request, func(), *connection.Rejection) {
	if s.admission == nil {
		return nil, nil, connection.Unavailable()
	}
	a := s.admission()
	if a == nil {
		return nil, nil, connection.Unavailable()
	}
	if b, ok := a.(connection.Binder); ok {
		return b.Admit(r)
	}
	if rej := a.RequestRejection(r); rej != nil {
		return nil, nil, rej
	}
	return r, func() {}, nil
}

// publicRejection is the admission service's rule for public routes
// (connection.PublicChecker: the Host, a foreign Origin, a cross-site
// write), or its Host check alone when that is all it has; none when the
// service cannot tell, or there is none.
func (s *Server) publicRejection(r *http.Request) *connection.Rejection {
	if s.admission == nil {
		return nil
	}
	switch a := s.admission().(type) {
	case connection.PublicChecker:
		return a.PublicRejection(r)
	case connection.HostChecker:
		return a.HostRejection(r)
	}
	return nil
}

// withClientAddress marks r with its client's address as the admission
// service tells it (connection.ClientAddresser: behind a trusted proxy,
// the client it names), for limits per client; without such a service,
// handlers see the peer (connection.ClientAddress).
func (s *Server) withClientAddress(r *http.Request) *http.Request {
	if s.admission == nil {
		return r
	}
	if a, ok := s.admission().(connection.ClientAddresser); ok {
		return connection.WithClientAddress(r, a.ClientAddress(r))
	}
	return r
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
		c.SetRequest(s.withClientAddress(c.Request()))
		if !rt.Public {
			r, done, rej := s.admit(c.Request())
			if rej != nil {
				return rej
			}
			defer done()
			c.SetRequest(r)
			noteWho(r.Context())
		} else if rej := s.publicRejection(c.Request()); rej != nil {
			// Public needs no credential, but still only the host's own
			// names (a rebound DNS name must not reach even an open
			// route), no other page's Origin, and no other site's write.
			return rej
		}
		return rt.Handler(c)
	}
}
