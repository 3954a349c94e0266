package webserver

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

func TestMountAtRuntimeThenUnmount(t *testing.T) {
	s := startServer(t, Config{}, admitAll)
	c := newClient(t)
	url := s.URL() + "/dsh-hello/api/greet/world"

	expectStatus(t, get(t, c, url), http.StatusNotFound, CodeNotFound)

	m, err := s.Mount("dsh-hello", Route{Method: "GET", Path: "/dsh-hello/api/greet/:name", Handler: func(c echo.Context) error {
		return c.String(http.StatusOK, "hello "+c.Param("name"))
	}})
	if err != nil {
		t.Fatal(err)
	}
	if r := get(t, c, url); r.status != http.StatusOK || r.body != "hello world" {
		t.Fatalf("mounted route: %d %q", r.status, r.body)
	}
	expectStatus(t, call(t, c, http.MethodPost, url, nil), http.StatusMethodNotAllowed, CodeMethodNotAllowed)

	if err := m.Unmount(context.Background()); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, get(t, c, url), http.StatusNotFound, CodeNotFound)
	if len(s.Routes()) != 0 {
		t.Fatalf("routes left: %+v", s.Routes())
	}
	if err := m.Unmount(context.Background()); err != nil {
		t.Fatalf("second unmount: %v", err)
	}
}

func TestUnmountWaitsForInFlightRequest(t *testing.T) {
	s := startServer(t, Config{}, admitAll)
	c := newClient(t)
	slow := newBlocker()
	m, err := s.Mount("slow", Route{Method: "GET", Path: "/slow", Handler: slow.handler}, Route{Method: "GET", Path: "/fast", Handler: text("fast")})
	if err != nil {
		t.Fatal(err)
	}

	inflight := background(c, http.MethodGet, s.URL()+"/slow")
	<-slow.entered

	unmounted := make(chan error, 1)
	go func() { unmounted <- m.Unmount(context.Background()) }()

	// Routes disappear at once, while the old request is still running.
	eventually(t, "routes removed", func() bool { return get(t, c, s.URL()+"/fast").status == http.StatusNotFound })
	select {
	case err := <-unmounted:
		t.Fatalf("Unmount returned (%v) while a request was in flight", err)
	default:
	}

	close(slow.release)
	if r := (<-inflight).must(t); r.status != http.StatusOK || r.body != "finished" {
		t.Fatalf("in-flight request: %d %q", r.status, r.body)
	}
	if err := <-unmounted; err != nil {
		t.Fatalf("Unmount: %v", err)
	}
}

func TestUnmountDrainTimeout(t *testing.T) {
	s := startServer(t, Config{DrainTimeout: 50 * time.Millisecond}, admitAll)
	c := newClient(t)
	stuck := newBlocker()
	m, err := s.Mount("stuck", Route{Method: "GET", Path: "/stuck", Handler: stuck.handler})
	if err != nil {
		t.Fatal(err)
	}
	inflight := background(c, http.MethodGet, s.URL()+"/stuck")
	<-stuck.entered

	err = m.Unmount(context.Background())
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "1 request(s) still running") {
		t.Fatalf("Unmount = %v, want drain timeout naming 1 request", err)
	}

	// A caller deadline shorter than DrainTimeout wins too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := m.Unmount(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Unmount with cancelled ctx = %v", err)
	}

	// The straggler is not killed; it finishes normally, after which the
	// drain completes.
	close(stuck.release)
	if r := (<-inflight).must(t); r.status != http.StatusOK {
		t.Fatalf("straggler: %d %q", r.status, r.body)
	}
	if err := m.Unmount(context.Background()); err != nil {
		t.Fatalf("Unmount after straggler finished: %v", err)
	}
}

func TestConflictingMountRejectedAtomically(t *testing.T) {
	s := startServer(t, Config{}, admitAll)
	c := newClient(t)
	if _, err := s.Mount("first", Route{Method: "GET", Path: "/shared/:id", Handler: text("first")}); err != nil {
		t.Fatal(err)
	}

	_, err := s.Mount("second",
		Route{Method: "GET", Path: "/second/only", Handler: text("second")},
		Route{Method: "*", Path: "/shared/:name", Handler: text("second")},
	)
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.ExistingOwner != "first" || !strings.Contains(err.Error(), `"first"`) {
		t.Fatalf("Mount = %v, want conflict naming first", err)
	}

	// None of second's routes appeared.
	expectStatus(t, get(t, c, s.URL()+"/second/only"), http.StatusNotFound, CodeNotFound)
	if r := get(t, c, s.URL()+"/shared/x"); r.body != "first" {
		t.Fatalf("shared route hijacked: %q", r.body)
	}
	if routes := s.Routes(); len(routes) != 1 || routes[0].Owner != "first" {
		t.Fatalf("routes %+v", routes)
	}

	// Duplicates inside one call conflict too, with nothing published.
	_, err = s.Mount("dup", Route{Method: "GET", Path: "/dup", Handler: text("a")}, Route{Method: "GET", Path: "/dup", Handler: text("b")})
	if !errors.As(err, &ce) || ce.ExistingOwner != "dup" {
		t.Fatalf("duplicate within call: %v", err)
	}
	expectStatus(t, get(t, c, s.URL()+"/dup"), http.StatusNotFound, CodeNotFound)
}

func TestMountValidation(t *testing.T) {
	s := New(Config{}, nil, admitAll)
	if _, err := s.Mount("", Route{Method: "GET", Path: "/a", Handler: text("a")}); err == nil {
		t.Error("empty owner accepted")
	}
	if _, err := s.Mount("x"); err == nil {
		t.Error("no routes accepted")
	}
	if _, err := s.Mount("x", Route{Method: "GET", Path: "/ok", Handler: text("a")}, Route{Method: "GET", Path: "bad"}); err == nil {
		t.Error("invalid route accepted")
	}
	if len(s.Routes()) != 0 {
		t.Fatalf("partial mount published: %+v", s.Routes())
	}
}

func TestRoutesListing(t *testing.T) {
	s := New(Config{}, nil, admitAll)
	m, err := s.Mount("p", Route{Method: "post", Path: "/p/b", Handler: text("b")}, Route{Method: "GET", Path: "/p/a", Handler: text("a"), Public: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []RouteInfo{{Owner: "p", Method: "GET", Path: "/p/a", Public: true}, {Owner: "p", Method: "POST", Path: "/p/b"}}
	got := s.Routes()
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("Routes() = %+v", got)
	}
	if m.Owner() != "p" || len(m.Routes()) != 2 {
		t.Fatalf("mount info %q %+v", m.Owner(), m.Routes())
	}
}
