package webserver

import (
	"errors"

	"github.com/dshgo/dsh/plugins/webserver/connection"
	"github.com/labstack/echo/v4"
)

// LoginOwner owns the login route in Routes().
const LoginOwner = "connection"

// MountLogin mounts conn's login handler at its LoginPath as a public route:
// the login link is how a browser obtains a session, so it cannot itself
// require one (it checks the Host and consumes its one-time token on its
// own). If the server is already listening, conn also learns the server's
// origins, which its same-origin checks need. Unmount the returned Mount
// when the connection service goes away.
func (s *Server) MountLogin(conn *connection.Service) (*Mount, error) {
	if conn == nil {
		return nil, errors.New("webserver: MountLogin needs a connection service")
	}
	if origins := s.Origins(); len(origins) > 0 {
		conn.SetOrigins(origins...)
	}
	h := echo.WrapHandler(conn.LoginHandler())
	return s.Mount(LoginOwner, Route{Method: "GET", Path: conn.LoginPath(), Handler: h, Public: true})
}
