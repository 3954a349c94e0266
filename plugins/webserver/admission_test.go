package webserver

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/dshgo/dsh/plugins/webserver/connection"
	"github.com/labstack/echo/v4"
)

func TestFailClosedWithoutAdmissionService(t *testing.T) {
	for name, admission := range map[string]func() connection.Admitter{
		"func returns nil": func() connection.Admitter { return nil },
		"nil func":         nil,
		"typed nil":        func() connection.Admitter { return (*connection.Service)(nil) },
	} {
		t.Run(name, func(t *testing.T) {
			s := startServer(t, Config{}, admission)
			c := newClient(t)
			var called atomic.Bool
			if _, err := s.Mount("p", Route{Method: "GET", Path: "/p", Handler: func(c echo.Context) error {
				called.Store(true)
				return c.String(http.StatusOK, "secret")
			}}); err != nil {
				t.Fatal(err)
			}
			expectStatus(t, get(t, c, s.URL()+"/p"), http.StatusServiceUnavailable, connection.CodeAdmissionUnavailable)
			if called.Load() {
				t.Fatal("handler ran without admission")
			}
		})
	}
}

func TestPublicRouteSkipsAdmission(t *testing.T) {
	s := startServer(t, Config{}, func() connection.Admitter { return nil })
	c := newClient(t)
	if _, err := s.Mount("health", Route{Method: "GET", Path: "/healthz", Handler: text("ok"), Public: true}); err != nil {
		t.Fatal(err)
	}
	if r := get(t, c, s.URL()+"/healthz"); r.status != http.StatusOK || r.body != "ok" {
		t.Fatalf("public route: %d %q", r.status, r.body)
	}
}

func TestRejectionRenderedAsJSON(t *testing.T) {
	var asked atomic.Int32
	deny := admitFunc(func(r *http.Request) *connection.Rejection {
		asked.Add(1)
		return &connection.Rejection{Status: http.StatusUnauthorized, Code: connection.CodeInvalidToken, Message: "bad token"}
	})
	s := startServer(t, Config{}, func() connection.Admitter { return deny })
	c := newClient(t)
	if _, err := s.Mount("p", Route{Method: "GET", Path: "/p", Handler: text("secret")}); err != nil {
		t.Fatal(err)
	}
	r := get(t, c, s.URL()+"/p")
	expectStatus(t, r, http.StatusUnauthorized, connection.CodeInvalidToken)
	if r.header.Get("WWW-Authenticate") == "" {
		t.Error("401 without WWW-Authenticate")
	}

	// Unknown paths and wrong methods are answered without consulting
	// admission: 404/405, not 401.
	before := asked.Load()
	expectStatus(t, get(t, c, s.URL()+"/unknown"), http.StatusNotFound, CodeNotFound)
	expectStatus(t, call(t, c, http.MethodDelete, s.URL()+"/p", nil), http.StatusMethodNotAllowed, CodeMethodNotAllowed)
	if asked.Load() != before {
		t.Fatal("admission consulted for an unmatched route")
	}
}

func TestAdmissionSeesTheRequest(t *testing.T) {
	onlyWithHeader := admitFunc(func(r *http.Request) *connection.Rejection {
		if r.Header.Get("X-Test-Pass") == "yes" {
			return nil
		}
		return &connection.Rejection{Status: http.StatusForbidden, Code: connection.CodeForbiddenOrigin, Message: "no"}
	})
	s := startServer(t, Config{}, func() connection.Admitter { return onlyWithHeader })
	c := newClient(t)
	if _, err := s.Mount("p", Route{Method: "GET", Path: "/p", Handler: text("in")}); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, get(t, c, s.URL()+"/p"), http.StatusForbidden, connection.CodeForbiddenOrigin)
	if r := call(t, c, http.MethodGet, s.URL()+"/p", nil, "X-Test-Pass", "yes"); r.status != http.StatusOK || r.body != "in" {
		t.Fatalf("admitted request: %d %q", r.status, r.body)
	}
}

// A public route needs no credential, but a request addressed to a name
// the host does not answer to (a rebound DNS name) does not reach it.
func TestPublicRouteStillChecksHost(t *testing.T) {
	conn, err := connection.New(connection.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	s := startServer(t, Config{}, func() connection.Admitter { return conn })
	c := newClient(t)
	var called atomic.Bool
	if _, err := s.Mount("open", Route{Method: "GET", Path: "/open", Handler: func(c echo.Context) error {
		called.Store(true)
		return c.String(http.StatusOK, "ok")
	}, Public: true}); err != nil {
		t.Fatal(err)
	}
	if r := get(t, c, s.URL()+"/open"); r.status != http.StatusOK {
		t.Fatalf("public route on the host's own name: %d", r.status)
	}
	called.Store(false)
	req, _ := http.NewRequest(http.MethodGet, s.URL()+"/open", nil)
	req.Host = "attacker.example:80"
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || called.Load() {
		t.Fatalf("a rebound name reached a public route: %d, handler ran %v", resp.StatusCode, called.Load())
	}
}
