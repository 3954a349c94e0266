package webserver

import (
	"context"
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/webserver/page"
)

// StartOwner owns the start page's route (GET /) in Routes().
const StartOwner = "webserver"

// startPages are the start pages plugins offer, newest last: `/` sends a
// browser to the newest, and taking it away brings back the one before.
type startPages struct {
	mu    sync.Mutex
	paths []*string
}

// SetStartPage makes path (a page of this server, "/notes/" say)
// the host's start page: where a browser opening `/` is sent. It returns
// the function that takes it away again; a plugin registers that as an
// effect (UseStartPage), so unloading the plugin gives `/` back.
func (s *Server) SetStartPage(path string) (undo func()) {
	p := &path
	s.start.mu.Lock()
	s.start.paths = append(s.start.paths, p)
	s.start.mu.Unlock()
	return func() {
		s.start.mu.Lock()
		defer s.start.mu.Unlock()
		for i, q := range s.start.paths {
			if q == p {
				s.start.paths = append(s.start.paths[:i:i], s.start.paths[i+1:]...)
				return
			}
		}
	}
}

// StartPage is where `/` sends a browser now ("" when no plugin offers a
// start page).
func (s *Server) StartPage() string {
	s.start.mu.Lock()
	defer s.start.mu.Unlock()
	if n := len(s.start.paths); n > 0 {
		return *s.start.paths[n-1]
	}
	return ""
}

// MountStart mounts the host's start page, GET /: a redirect to the page
// a plugin offers (SetStartPage), else a short page saying the host runs
// and no plugin offers one. It is public: a redirect reveals nothing, and
// the page it sends to asks for a session itself.
func (s *Server) MountStart() (*Mount, error) {
	return s.Mount(StartOwner, Route{Method: http.MethodGet, Path: "/", Public: true, Handler: func(c echo.Context) error {
		if to := s.StartPage(); to != "" {
			return c.Redirect(http.StatusFound, to)
		}
		return page.Write(c.Response(), http.StatusOK, page.Page{Title: "dsh is running",
			Body: "This host serves no start page: none of its plugins offers one."})
	}})
}

// UseStartPage makes path the host's start page while ctx's scope lives.
func UseStartPage(ctx *app.Context, path string) error {
	srv, err := app.Get[*Server](ctx, ServiceName)
	if err != nil {
		return err
	}
	_, err = ctx.Acquire("start page "+path, func() (app.Disposer, error) {
		undo := srv.SetStartPage(path)
		return func(context.Context) error { undo(); return nil }, nil
	})
	return err
}
