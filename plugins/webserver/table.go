package webserver

import (
	"cmp"
	"io"
	"slices"

	"github.com/labstack/echo/v4"
)

// routeTable is one immutable generation of plugin routes. Its router is a
// private *echo.Echo used only for matching and path parameters; it is
// fully built before being published through Server.table and never
// touched again, which is what makes serving from it race-free.
type routeTable struct {
	router *echo.Echo
	infos  []RouteInfo
}

// newRouter returns an echo instance that renders errors with onError, as
// the outer one does, and keeps echo's own logger quiet (we log through
// zap).
func newRouter(onError echo.HTTPErrorHandler) *echo.Echo {
	e := echo.New()
	e.Logger.SetOutput(io.Discard)
	e.HTTPErrorHandler = onError
	return e
}

// buildTable makes a fresh table from the given mounts. Callers guarantee
// the mounts' routes do not conflict.
func buildTable(mounts []*Mount, onError echo.HTTPErrorHandler) *routeTable {
	t := &routeTable{router: newRouter(onError)}
	for _, m := range mounts {
		for i, rt := range m.routes {
			h := m.handlers[i]
			if rt.Method == AnyMethod {
				// Any covers echo's known methods; the per-path
				// not-found handler catches the rest (e.g. MKCOL), which
				// echo would otherwise answer with 405.
				t.router.Any(rt.Path, h)
				t.router.RouteNotFound(rt.Path, h)
			} else {
				t.router.Add(rt.Method, rt.Path, h)
			}
			t.infos = append(t.infos, RouteInfo{Owner: m.owner, Method: rt.Method, Path: rt.Path, Public: rt.Public})
		}
	}
	slices.SortFunc(t.infos, func(a, b RouteInfo) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Method, b.Method), cmp.Compare(a.Owner, b.Owner))
	})
	return t
}
