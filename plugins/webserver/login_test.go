package webserver

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alexedwards/argon2id"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
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

	link := conn.NewLoginLink(t.Context(), s.URL())
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
	expectStatus(t, get(t, c, conn.NewLoginLink(t.Context(), s.URL())), http.StatusNotFound, CodeNotFound)
}

func TestMountLoginNeedsService(t *testing.T) {
	if _, err := New(Config{}, nil, admitAll).MountLogin(nil); err == nil {
		t.Fatal("want error")
	}
}

// TestSignInPagesEndToEnd: with accounts, MountLogin serves the invite,
// password and logout pages too, all public; a person walks through them
// on the real server.
func TestSignInPagesEndToEnd(t *testing.T) {
	st := accounts.Open(filepath.Join(t.TempDir(), accounts.FileName),
		accounts.Options{HashParams: &argon2id.Params{Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}})
	if _, _, err := st.EnsureOwner(t.Context(), "olga"); err != nil {
		t.Fatal(err)
	}
	conn, err := connection.New(connection.Config{Accounts: st}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s := startServer(t, Config{}, func() connection.Admitter { return conn })
	c := newClient(t)
	if _, err := s.MountLogin(conn); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mount("dsh-notes", Route{Method: "GET", Path: "/dsh-notes/api/notes", Handler: text("[]")}); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, path := range []string{"/login", "/login/invite", "/logout"} {
		want["GET "+path], want["POST "+path] = true, true
	}
	for _, ri := range s.Routes() {
		if ri.Owner == LoginOwner {
			if !ri.Public || !want[ri.Method+" "+ri.Path] {
				t.Errorf("route %+v", ri)
			}
			delete(want, ri.Method+" "+ri.Path)
		}
	}
	if len(want) != 0 {
		t.Fatalf("not mounted: %v", want)
	}

	_, secret, err := st.Add(t.Context(), "bob", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	invite := connection.InviteURL(s.URL(), conn.LoginPath(), secret)
	if r := get(t, c, invite); r.status != http.StatusOK || !strings.Contains(r.body, `action="/login/invite"`) {
		t.Fatalf("invite page: %d %s", r.status, r.body)
	}
	form := url.Values{"token": {secret}, "password": {"correct horse battery"}, "confirm": {"correct horse battery"}}
	formType := "application/x-www-form-urlencoded"
	if r := call(t, c, http.MethodPost, s.URL()+"/login/invite", strings.NewReader(form.Encode()), "Content-Type", formType, "Origin", "http://evil.example"); r.status != http.StatusForbidden {
		t.Fatalf("cross-site accept: %d", r.status)
	}
	r := call(t, c, http.MethodPost, s.URL()+"/login/invite", strings.NewReader(form.Encode()), "Content-Type", formType, "Origin", s.URL())
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/" {
		t.Fatalf("accept: %d %s", r.status, r.body)
	}
	cookie := strings.SplitN(r.header.Get("Set-Cookie"), ";", 2)[0]
	api := s.URL() + "/dsh-notes/api/notes"
	if r := call(t, c, http.MethodGet, api, nil, "Cookie", cookie, "Sec-Fetch-Site", "same-origin"); r.status != http.StatusOK {
		t.Fatalf("session GET: %d %s", r.status, r.body)
	}

	login := url.Values{"name": {"bob"}, "password": {"correct horse battery"}, "next": {"/dsh-notes/"}}
	r = call(t, c, http.MethodPost, s.URL()+"/login", strings.NewReader(login.Encode()), "Content-Type", formType, "Origin", s.URL())
	if r.status != http.StatusSeeOther || r.header.Get("Location") != "/dsh-notes/" {
		t.Fatalf("password login: %d %s", r.status, r.body)
	}

	if r := call(t, c, http.MethodPost, s.URL()+"/logout", nil, "Cookie", cookie, "Origin", s.URL()); r.status != http.StatusSeeOther || r.header.Get("Location") != "/login" {
		t.Fatalf("logout: %d %s", r.status, r.body)
	}
	expectStatus(t, call(t, c, http.MethodGet, api, nil, "Cookie", cookie, "Sec-Fetch-Site", "same-origin"), http.StatusUnauthorized, connection.CodeUnauthenticated)
}
