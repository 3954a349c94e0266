package admin

import (
	"bytes"
	"net/http"
	"net/http/pprof"
	rpprof "runtime/pprof"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// PprofPrefix is where the Go runtime's profiles are served, to admins
// only (net/http/pprof's handlers): the index, profile (CPU, ?seconds=N),
// trace, cmdline, symbol, and every named profile (goroutine, heap,
// allocs, block, mutex, threadcreate).
const PprofPrefix = AdminPrefix + "/debug/pprof"

// CodeProfileRefused is a profile the Go runtime would not take: another
// CPU profile or trace under way (409), or a request pprof cannot answer
// (400). The message is pprof's own.
const CodeProfileRefused = "profile_refused"

// pprofRoutes are net/http/pprof's handlers under PprofPrefix.
func pprofRoutes() []webserver.Route {
	h := func(f http.HandlerFunc) echo.HandlerFunc { return echo.WrapHandler(inContract(f)) }
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
	inContract(pprof.Handler(name).ServeHTTP)(c.Response(), c.Request())
	return nil
}

// inContract answers pprof's refusals (plain text) in the error contract.
func inContract(f http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rw := &refusal{ResponseWriter: w}
		f(rw, r)
		if rw.status == 0 {
			return
		}
		status := http.StatusBadRequest
		if rw.status >= 500 {
			status = http.StatusConflict
		}
		w.Header().Del("X-Go-Pprof")
		_ = apierr.Write(w, status, CodeProfileRefused, strings.TrimSpace(rw.text.String()), nil)
	}
}

// refusal holds back an answer of status 400 or more, keeping its text.
type refusal struct {
	http.ResponseWriter
	status int
	text   bytes.Buffer
}

func (w *refusal) WriteHeader(code int) {
	if code < 400 {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.status = code
}

func (w *refusal) Write(b []byte) (int, error) {
	if w.status != 0 {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}
