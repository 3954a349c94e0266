package admin

import (
	"net/http"
	"net/http/pprof"
	rpprof "runtime/pprof"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/webserver"
)

// PprofPrefix is where the Go runtime's profiles are served, to admins
// only (net/http/pprof's handlers): the index, profile (CPU, ?seconds=N),
// trace, cmdline, symbol, and every named profile (goroutine, heap,
// allocs, block, mutex, threadcreate).
const PprofPrefix = AdminPrefix + "/debug/pprof"

// pprofRoutes are net/http/pprof's handlers under PprofPrefix.
func pprofRoutes() []webserver.Route {
	h := func(f http.HandlerFunc) echo.HandlerFunc { return echo.WrapHandler(f) }
	return []webserver.Route{
		{Method: http.MethodGet, Path: PprofPrefix + "/", Handler: h(pprof.Index)},
		{Method: http.MethodGet, Path: PprofPrefix + "/cmdline", Handler: h(pprof.Cmdline)},
		{Method: http.MethodGet, Path: PprofPrefix + "/profile", Handler: h(pprof.Profile)},
		{Method: http.MethodGet, Path: PprofPrefix + "/symbol", Handler: h(pprof.Symbol)},
		{Method: http.MethodPost, Path: PprofPrefix + "/symbol", Handler: h(pprof.Symbol)},
		{Method: http.MethodGet, Path: PprofPrefix + "/trace", Handler: h(pprof.Trace)},
		{Method: http.MethodGet, Path: PprofPrefix + "/:name", Handler: namedProfile},
	}
}

// namedProfile serves a profile runtime/pprof knows by name; another name
// is not_found in the error contract.
func namedProfile(c echo.Context) error {
	name := c.Param("name")
	if rpprof.Lookup(name) == nil {
		return webserver.NewError(http.StatusNotFound, webserver.CodeNotFound, "no profile named "+name)
	}
	pprof.Handler(name).ServeHTTP(c.Response(), c.Request())
	return nil
}
