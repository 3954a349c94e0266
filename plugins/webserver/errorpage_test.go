package webserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// navigate is what a browser sends when a person opens a URL.
var navigate = []string{"Sec-Fetch-Mode", "navigate", "Sec-Fetch-Dest", "document", "Sec-Fetch-Site", "none", "Accept", "text/html,*/*;q=0.8"}

// TestNavigationErrorsArePages: a person who opens a page without a
// session, or a page that is not there, gets an HTML page that says what
// happened and what to do — never the raw JSON programs get. The same
// requests from the page's own fetches (or from curl) still get JSON.
func TestNavigationErrorsArePages(t *testing.T) {
	conn, err := connection.New(connection.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, Config{LoginCommand: "dsh login --config /srv/dsh.yaml"}, func() connection.Admitter { return conn })
	if _, err := s.Mount("editor", Route{Method: "GET", Path: "/editor/", Handler: text("the editor")}); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)

	r := call(t, c, http.MethodGet, s.URL()+"/editor/", nil, navigate...)
	if r.status != http.StatusUnauthorized || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("navigation without a session: %d %q", r.status, r.header.Get("Content-Type"))
	}
	for _, want := range []string{"Not logged in", "dsh login --config /srv/dsh.yaml"} {
		if !strings.Contains(r.body, want) {
			t.Errorf("401 page lacks %q:\n%s", want, r.body)
		}
	}
	if strings.Contains(r.body, `"error"`) {
		t.Errorf("401 page shows JSON:\n%s", r.body)
	}

	r = call(t, c, http.MethodGet, s.URL()+"/no/such/page", nil, navigate...)
	if r.status != http.StatusNotFound || !strings.Contains(r.body, "Nothing here") || !strings.Contains(r.body, "/no/such/page") {
		t.Fatalf("navigation to an unknown page: %d\n%s", r.status, r.body)
	}

	// The page's own fetches and programs keep the JSON contract.
	r = call(t, c, http.MethodGet, s.URL()+"/editor/", nil, "Sec-Fetch-Mode", "cors", "Sec-Fetch-Site", "same-origin", "Accept", "*/*")
	expectStatus(t, r, http.StatusUnauthorized, connection.CodeUnauthenticated)
	r = call(t, c, http.MethodGet, s.URL()+"/no/such/page", nil)
	expectStatus(t, r, http.StatusNotFound, CodeNotFound)
}

// TestNotFoundPageDoesNotLinkToItself: with no start page mounted, the
// root's not-found page offers no link back to the root.
func TestNotFoundPageDoesNotLinkToItself(t *testing.T) {
	if p := pageFor(http.StatusNotFound, CodeNotFound, "", "/", DefaultLoginCommand); p.Link != "" {
		t.Fatalf("the root's not-found page links to %q", p.Link)
	}
	if p := pageFor(http.StatusNotFound, CodeNotFound, "", "/x", DefaultLoginCommand); p.Link != "/" {
		t.Fatalf("a not-found page links to %q, want the start page", p.Link)
	}
}

// A person whose credential cannot be checked because the database is
// down is told so, and that their session is kept: not sent to sign in.
func TestStoreUnavailablePage(t *testing.T) {
	rej := connection.StoreUnavailable()
	p := pageFor(rej.Status, rej.Code, rej.Message, "/dsh-excalidraw/", "dsh login")
	if rej.Status != http.StatusServiceUnavailable || !strings.Contains(p.Title, "database") || !strings.Contains(p.Body, "session is kept") || p.Link != "/dsh-excalidraw/" {
		t.Fatalf("%d %+v", rej.Status, p)
	}
	if d := rej.ErrorDetails(); d["retryable"] != true {
		t.Fatalf("details %v: a program should be told to retry", d)
	}
}
