package webserver

import (
	"net/http"
	"strings"
	"testing"
)

// The start page: `/` sends a browser to the newest page a plugin offers;
// taking one away (in any order) leaves the others; with none, `/` is
// the host's own short page, never a redirect.
func TestStartPage(t *testing.T) {
	s := startServer(t, Config{}, admitAll)
	if _, err := s.MountStart(); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	root := func() result { t.Helper(); return get(t, c, s.URL()+"/") }
	if r := root(); r.status != http.StatusOK || r.header.Get("Location") != "" || !strings.Contains(r.body, "no start page") {
		t.Fatalf("no start page: %d %q\n%s", r.status, r.header.Get("Location"), r.body)
	}
	undoA := s.SetStartPage("/a/")
	undoB := s.SetStartPage("/b/")
	if r := root(); r.status != http.StatusFound || r.header.Get("Location") != "/b/" {
		t.Fatalf("two offered: %d %q", r.status, r.header.Get("Location"))
	}
	undoA()
	if r := root(); r.header.Get("Location") != "/b/" {
		t.Fatalf("the older one taken away: %q", r.header.Get("Location"))
	}
	undoB()
	undoB() // twice is harmless
	if got := s.StartPage(); got != "" {
		t.Fatalf("all taken away: %q", got)
	}
}
