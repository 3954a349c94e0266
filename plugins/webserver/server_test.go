package webserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestStartBindsSynchronously(t *testing.T) {
	s := startServer(t, Config{}, admitAll)
	if s.Addr() == nil || !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Fatalf("Addr %v URL %q", s.Addr(), s.URL())
	}
	// Listening as soon as Start returns: no wait needed.
	c := newClient(t)
	expectStatus(t, get(t, c, s.URL()+"/"), http.StatusNotFound, CodeNotFound)

	if err := s.Start(context.Background()); err == nil {
		t.Fatal("second Start succeeded")
	}
	busy := New(Config{Listen: s.Addr().String()}, nil, admitAll)
	if err := busy.Start(context.Background()); err == nil {
		t.Fatal("Start on a busy port succeeded")
	}
	if err := busy.Shutdown(context.Background()); err != nil {
		t.Fatalf("shutdown of never-started server: %v", err)
	}
}

func TestURLAndOriginsBeforeAndAfterStart(t *testing.T) {
	s := New(Config{Listen: "127.0.0.1:0"}, nil, admitAll)
	if s.Addr() != nil || s.URL() != "" || s.Origins() != nil {
		t.Fatal("address reported before Start")
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	port := s.Addr().String()[len("127.0.0.1:"):]
	want := []string{"http://127.0.0.1:" + port, "http://localhost:" + port}
	if got := s.Origins(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("Origins() = %v, want %v", got, want)
	}
}

func TestHandlerEmbeddable(t *testing.T) {
	s := New(Config{}, nil, admitAll)
	if _, err := s.Mount("p", Route{Method: "GET", Path: "/p", Handler: text("embedded")}); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	c := newClient(t)
	if r := get(t, c, hs.URL+"/p"); r.status != http.StatusOK || r.body != "embedded" {
		t.Fatalf("%d %q", r.status, r.body)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	// After Shutdown the handler refuses instead of running plugin code.
	expectStatus(t, get(t, c, hs.URL+"/p"), http.StatusServiceUnavailable, CodeShuttingDown)
}
