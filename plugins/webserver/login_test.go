package webserver

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// TestLoginFlowEndToEnd composes the server with the real connection
// service the way dsh does and walks a browser through it.
func TestLoginFlowEndToEnd(t *testing.T) {
	conn, err := connection.New(connection.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s := startServer(t, Config{}, func() connection.Admitter { return conn })
	c := newClient(t)
	login, err := s.MountLogin(conn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mount("dsh-notes",
		Route{Method: "GET", Path: "/dsh-notes/api/notes", Handler: text("[]")},
		Route{Method: "POST", Path: "/dsh-notes/api/notes", Handler: text("created")},
	); err != nil {
		t.Fatal(err)
	}
	api := s.URL() + "/dsh-notes/api/notes"

	expectStatus(t, get(t, c, api), http.StatusUnauthorized, connection.CodeUnauthenticated)

	link := conn.NewLoginLink(s.URL())
	r := get(t, c, link+"&next=/dsh-notes/")
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/dsh-notes/" {
		t.Fatalf("login: %d %q", r.status, r.header.Get("Location"))
	}
	cookie := strings.SplitN(r.header.Get("Set-Cookie"), ";", 2)[0]
	if !strings.HasPrefix(cookie, connection.DefaultCookieName+"=") {
		t.Fatalf("Set-Cookie %q", r.header.Get("Set-Cookie"))
	}
	if again := get(t, c, link); again.status != http.StatusForbidden {
		t.Fatalf("login link reused: %d", again.status)
	}

	if r := call(t, c, http.MethodGet, api, nil, "Cookie", cookie, "Sec-Fetch-Site", "same-origin"); r.status != http.StatusOK || r.body != "[]" {
		t.Fatalf("session GET: %d %q", r.status, r.body)
	}
	if r := call(t, c, http.MethodPost, api, nil, "Cookie", cookie, "Origin", s.URL()); r.status != http.StatusOK || r.body != "created" {
		t.Fatalf("same-origin POST: %d %q", r.status, r.body)
	}
	expectStatus(t, call(t, c, http.MethodPost, api, nil, "Cookie", cookie, "Origin", "http://evil.example"),
		http.StatusForbidden, connection.CodeForbiddenOrigin)
	expectStatus(t, call(t, c, http.MethodPost, api, nil, "Cookie", cookie), http.StatusForbidden, connection.CodeCSRFRejected)

	found := false
	for _, ri := range s.Routes() {
		if ri.Owner == LoginOwner && ri.Path == "/login" && ri.Public {
			found = true
		}
	}
	if !found {
		t.Fatalf("login route not listed: %+v", s.Routes())
	}

	if err := login.Unmount(context.Background()); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, get(t, c, conn.NewLoginLink(s.URL())), http.StatusNotFound, CodeNotFound)
}

func TestMountLoginNeedsService(t *testing.T) {
	if _, err := New(Config{}, nil, admitAll).MountLogin(nil); err == nil {
		t.Fatal("want error")
	}
}
