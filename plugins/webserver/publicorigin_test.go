package webserver

import (
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/alexedwards/argon2id"
	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Public routes (no credential needed) still refuse another site: a
// foreign Origin on any request, as on every other route, and a write a
// browser marks as cross-site or same-site (Sec-Fetch-Site). Programs
// (no Origin, a bearer token or none), the host's own pages, an allowed
// origin, and a link followed from another site (a GET) still get
// through; the password form posted from dsh's own login page too.
func TestPublicRoutesRefuseOtherSites(t *testing.T) {
	st := accounts.Open(filepath.Join(t.TempDir(), accounts.FileName),
		accounts.Options{HashParams: &argon2id.Params{Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}})
	owner, _, err := st.EnsureOwner(t.Context(), "olga")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetPassword(t.Context(), owner.ID, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	const allowed = "http://localhost:6274"
	conn, err := connection.New(connection.Config{Accounts: st, AllowedOrigins: []string{allowed}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s := startServer(t, Config{}, func() connection.Admitter { return conn })
	c := newClient(t)
	if _, err := s.MountLogin(conn); err != nil {
		t.Fatal(err)
	}
	var writes, reads atomic.Int32
	if _, err := s.Mount("open",
		Route{Method: http.MethodPut, Path: "/open", Public: true, Handler: func(c echo.Context) error {
			writes.Add(1)
			return c.String(http.StatusCreated, "stored")
		}},
		Route{Method: http.MethodGet, Path: "/open", Public: true, Handler: func(c echo.Context) error {
			reads.Add(1)
			return c.String(http.StatusOK, "file")
		}},
	); err != nil {
		t.Fatal(err)
	}
	open := s.URL() + "/open"
	for _, h := range [][]string{
		{"Origin", "http://evil.example"},
		{"Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site"},
		{"Origin", "null"},
		{"Origin", "null", "Sec-Fetch-Site", "cross-site"},
		{"Origin", "http://evil.example", "Authorization", "Bearer whatever"},
	} {
		expectStatus(t, call(t, c, http.MethodPut, open, strings.NewReader("x"), h...), http.StatusForbidden, connection.CodeForbiddenOrigin)
	}
	expectStatus(t, call(t, c, http.MethodGet, open, nil, "Origin", "http://evil.example"), http.StatusForbidden, connection.CodeForbiddenOrigin)
	if writes.Load() != 0 || reads.Load() != 0 {
		t.Fatalf("refused requests reached the handlers: %d writes, %d reads", writes.Load(), reads.Load())
	}
	for _, h := range [][]string{
		nil, // a program
		{"Authorization", "Bearer whatever"},
		{"Origin", s.URL(), "Sec-Fetch-Site", "same-origin"},
		{"Sec-Fetch-Site", "same-origin"},
		{"Sec-Fetch-Site", "none"},
		{"Origin", allowed, "Sec-Fetch-Site", "same-site"},
	} {
		if r := call(t, c, http.MethodPut, open, strings.NewReader("x"), h...); r.status != http.StatusCreated {
			t.Fatalf("PUT with %q: %d %s", h, r.status, r.body)
		}
	}
	if r := call(t, c, http.MethodGet, open, nil, "Sec-Fetch-Site", "cross-site"); r.status != http.StatusOK {
		t.Fatalf("a link followed from another site: %d", r.status)
	}

	// A login link fetched by another site's page is refused, and still
	// works once, for the person who follows it.
	link := conn.NewLoginLink(t.Context(), s.URL())
	expectStatus(t, call(t, c, http.MethodGet, link, nil, "Origin", "http://evil.example"), http.StatusForbidden, connection.CodeForbiddenOrigin)
	if r := call(t, c, http.MethodGet, link, nil, "Sec-Fetch-Site", "cross-site"); r.status != http.StatusSeeOther {
		t.Fatalf("the login link followed from a chat: %d %s", r.status, r.body)
	}

	// The password form: posted from dsh's own page (served with
	// Referrer-Policy: no-referrer, so its Origin is "null") it signs in;
	// from another site it is refused.
	form := url.Values{"name": {"olga"}, "password": {"correct horse battery"}, "next": {"/"}}
	formType := "application/x-www-form-urlencoded"
	if r := call(t, c, http.MethodPost, s.URL()+"/login", strings.NewReader(form.Encode()), "Content-Type", formType,
		"Origin", "null", "Sec-Fetch-Site", "same-origin"); r.status != http.StatusSeeOther || r.header.Get("Set-Cookie") == "" {
		t.Fatalf("the password form from dsh's page: %d %s", r.status, r.body)
	}
	if r := call(t, c, http.MethodPost, s.URL()+"/login", strings.NewReader(form.Encode()), "Content-Type", formType,
		"Origin", s.URL(), "Sec-Fetch-Site", "same-origin"); r.status != http.StatusSeeOther {
		t.Fatalf("the password form with its origin: %d %s", r.status, r.body)
	}
	for _, h := range [][]string{{"Origin", "http://evil.example"}, {"Sec-Fetch-Site", "cross-site"}} {
		r := call(t, c, http.MethodPost, s.URL()+"/login", strings.NewReader(form.Encode()), append([]string{"Content-Type", formType}, h...)...)
		if r.status != http.StatusForbidden || r.header.Get("Set-Cookie") != "" {
			t.Fatalf("the password form from another site (%q): %d", h, r.status)
		}
	}
}
