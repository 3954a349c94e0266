package webserver

import (
	"errors"
	"net/http"

	"github.com/dshgo/dsh/plugins/webserver/connection"
	"github.com/labstack/echo/v4"
)

// LoginOwner owns the login routes in Routes().
const LoginOwner = "connection"

// MountLogin mounts conn's sign-in pages as public routes: they are how a
// browser obtains a session, so they cannot themselves require one (each
// checks the Host, and a form post its provenance, on its own):
//
//   - the login path (GET, POST): the one-time login link, and the
//     password form;
//   - the invite path (GET, POST): accepting an invite, setting a password;
//   - the logout path (GET, POST): ending this browser's session.
//
// If the server is already listening, conn also learns the server's
// origins, which its same-origin checks need. Unmount the returned Mount
// when the connection service goes away.
func (s *Server) MountLogin(conn *connection.Service) (*Mount, error) {
	if conn == nil {
		return nil, errors.New("webserver: MountLogin needs a connection service")
	}
	if origins := s.Origins(); len(origins) > 0 {
		conn.SetOrigins(origins...)
	}
	login := echo.WrapHandler(conn.LoginHandler())
	invite := echo.WrapHandler(conn.InviteHandler())
	logout := echo.WrapHandler(conn.LogoutHandler())
	return s.Mount(LoginOwner,
		Route{Method: http.MethodGet, Path: conn.LoginPath(), Handler: login, Public: true},
		Route{Method: http.MethodPost, Path: conn.LoginPath(), Handler: login, Public: true},
		Route{Method: http.MethodGet, Path: conn.InvitePath(), Handler: invite, Public: true},
		Route{Method: http.MethodPost, Path: conn.InvitePath(), Handler: invite, Public: true},
		Route{Method: http.MethodGet, Path: conn.LogoutPath(), Handler: logout, Public: true},
		Route{Method: http.MethodPost, Path: conn.LogoutPath(), Handler: logout, Public: true},
	)
}
