package webserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"
)

// tableMount builds a Mount whose handlers are the raw route handlers, to
// test routing in isolation from admission and draining.
func tableMount(owner string, routes ...Route) *Mount {
	m := &Mount{owner: owner, routes: routes}
	for _, r := range routes {
		m.handlers = append(m.handlers, r.Handler)
	}
	return m
}

func say(s string) echo.HandlerFunc {
	return func(c echo.Context) error { return c.String(http.StatusOK, s+":"+c.Param("name")) }
}

func TestBuildTableRoutes(t *testing.T) {
	tbl := buildTable([]*Mount{
		tableMount("draw", Route{Method: "GET", Path: "/draw/scenes/:name", Handler: say("get")}),
		tableMount("dav", Route{Method: AnyMethod, Path: "/dav", Handler: say("dav")}),
	}, errorHandler(zap.NewNop(), DefaultLoginCommand))
	srv := httptest.NewServer(tbl.router)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()

	do := func(method, path string) (int, string) {
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	if st, body := do("GET", "/draw/scenes/a"); st != 200 || body != "get:a" {
		t.Fatalf("param route: %d %q", st, body)
	}
	for _, m := range []string{"GET", "DELETE", "MKCOL"} {
		if st, body := do(m, "/dav"); st != 200 || body != "dav:" {
			t.Fatalf("any route with %s: %d %q", m, st, body)
		}
	}
	st, body := do("GET", "/nope")
	var e errorBody
	if st != 404 || json.Unmarshal([]byte(body), &e) != nil || e.Error.Code != CodeNotFound {
		t.Fatalf("unknown path: %d %q", st, body)
	}
	if st, body := do("POST", "/draw/scenes/a"); st != 405 {
		t.Fatalf("wrong method: %d %q", st, body)
	}

	if len(tbl.infos) != 2 || tbl.infos[0].Path != "/dav" || tbl.infos[1].Owner != "draw" {
		t.Fatalf("infos %+v", tbl.infos)
	}
}
