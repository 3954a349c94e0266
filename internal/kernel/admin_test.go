package kernel_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/dshtest"
	"github.com/dshgo/dsh/internal/kernel"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testHost is a real host on a free loopback port; stop is idempotent and
// also runs at the end of the test.
type testHost struct {
	*dsh.Host
	stop func()
}

func startHost(t *testing.T, dataDir string) testHost {
	t.Helper()
	return startHostWith(t, dataDir, "")
}

// client follows no redirects (the tests look at them) and closes its idle
// connections at the end, so goleak sees no keep-alive goroutines.
func client(t *testing.T) *http.Client {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

type reply struct {
	status int
	header http.Header
	body   string
	code   string // error.code of a JSON error body
}

func send(t *testing.T, c *http.Client, method, url, body string, hdr ...string) reply {
	t.Helper()
	resp, b := dshtest.Send(t, c, method, url, body, hdr...)
	r := reply{status: resp.StatusCode, header: resp.Header, body: string(b)}
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil {
		r.code = e.Error.Code
	}
	return r
}

// useLink opens a login link as a browser would and returns the session
// cookie ("name=value") it set.
func useLink(t *testing.T, c *http.Client, link, userAgent string) (cookie, location string) {
	t.Helper()
	r := send(t, c, http.MethodGet, link, "", "User-Agent", userAgent)
	if r.status != http.StatusSeeOther {
		t.Fatalf("login link: %d %s", r.status, r.body)
	}
	cookie, _, _ = strings.Cut(r.header.Get("Set-Cookie"), ";")
	if !strings.HasPrefix(cookie, "dsh_session=") {
		t.Fatalf("Set-Cookie %q", r.header.Get("Set-Cookie"))
	}
	return cookie, r.header.Get("Location")
}

func statusWith(t *testing.T, c *http.Client, h testHost, cookie string) int {
	t.Helper()
	return send(t, c, http.MethodGet, h.URL()+"/api/status", "", "Cookie", cookie, "Sec-Fetch-Site", "same-origin").status
}

// TestAdminLoginLinks: the one-time link works once and its second use
// says how to get a new one; the admin API mints new links for a bearer
// token, never for a browser session.
func TestAdminLoginLinks(t *testing.T) {
	h := startHost(t, t.TempDir())
	c := client(t)
	bearer := []string{"Authorization", "Bearer " + h.Token()}

	link, err := h.LoginLink()
	if err != nil {
		t.Fatal(err)
	}
	cookie, _ := useLink(t, c, link, "test-browser")
	again := send(t, c, http.MethodGet, link, "")
	if again.status != http.StatusForbidden || !strings.Contains(again.body, "dsh login") {
		t.Fatalf("second use: %d %s", again.status, again.body)
	}

	// A new link from the admin API, with a landing page, works once.
	r := send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", `{"next":"/api/status"}`, bearer...)
	var minted struct {
		URL       string    `json:"url"`
		ExpiresAt time.Time `json:"expiresAt"`
	}
	if r.status != http.StatusCreated || json.Unmarshal([]byte(r.body), &minted) != nil {
		t.Fatalf("mint: %d %s", r.status, r.body)
	}
	if !strings.HasPrefix(minted.URL, h.URL()+"/login?token=") || !strings.Contains(minted.URL, "next=%2Fapi%2Fstatus") || !minted.ExpiresAt.After(time.Now()) {
		t.Fatalf("minted %+v", minted)
	}
	second, loc := useLink(t, c, minted.URL, "test-browser")
	if loc != "/api/status" {
		t.Fatalf("landing page %q", loc)
	}
	if statusWith(t, c, h, second) != http.StatusOK {
		t.Fatal("session from the minted link not admitted")
	}
	if r := send(t, c, http.MethodGet, minted.URL, ""); r.status != http.StatusForbidden {
		t.Fatalf("minted link reused: %d", r.status)
	}
	// No body: a link to the home page.
	r = send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", "", bearer...)
	if r.status != http.StatusCreated || strings.Contains(r.body, "next=") {
		t.Fatalf("mint without body: %d %s", r.status, r.body)
	}

	// A browser session (same-origin, so it passes CSRF) may not mint links.
	r = send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", `{}`, "Cookie", cookie, "Origin", h.URL())
	if r.status != http.StatusForbidden || r.code != "bearer_required" || strings.Contains(r.body, "token=") {
		t.Fatalf("mint with a session cookie: %d %s", r.status, r.body)
	}
	// Bad input is refused and mints nothing.
	for _, body := range []string{`{"next":"//evil.example/"}`, `{"next":"https://evil.example/"}`, `{"nxt":"/"}`, `{"next":`, `[]`} {
		r = send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", body, bearer...)
		if r.status != http.StatusBadRequest || strings.Contains(r.body, "token=") {
			t.Fatalf("body %s: %d %s", body, r.status, r.body)
		}
	}
	if r := send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", ""); r.status != http.StatusUnauthorized {
		t.Fatalf("mint without credentials: %d", r.status)
	}
}

// TestSessionsSurviveRestart: a session minted by one host process is
// valid in the next one on the same data directory; the file holds only
// hashes, privately; revocation through the admin API refuses the cookie
// at once.
func TestSessionsSurviveRestart(t *testing.T) {
	dataDir := t.TempDir()
	c := client(t)
	first := startHost(t, dataDir)
	link, _ := first.LoginLink()
	cookie, _ := useLink(t, c, link, "Mozilla/5.0 (X11; Linux x86_64) dsh-test-browser/1.0")
	if statusWith(t, c, first, cookie) != http.StatusOK {
		t.Fatal("fresh session not admitted")
	}
	first.stop()

	second := startHost(t, dataDir)
	if got := statusWith(t, c, second, cookie); got != http.StatusOK {
		t.Fatalf("session after restart: %d, want 200", got)
	}
	path := filepath.Join(dataDir, "sessions.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	secret := strings.TrimPrefix(cookie, "dsh_session=")
	sum := sha256.Sum256([]byte(secret))
	if bytes.Contains(raw, []byte(secret)) || !bytes.Contains(raw, []byte(hex.EncodeToString(sum[:]))) {
		t.Fatalf("sessions file must hold the hash, never the secret:\n%s", raw)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("sessions file mode %v", fi.Mode().Perm())
	}

	bearer := []string{"Authorization", "Bearer " + second.Token()}
	r := send(t, c, http.MethodGet, second.URL()+"/api/admin/sessions", "", bearer...)
	var list struct {
		Sessions []struct {
			ID, Label, SHA256    string
			CreatedAt, ExpiresAt time.Time
		} `json:"sessions"`
	}
	if r.status != http.StatusOK || json.Unmarshal([]byte(r.body), &list) != nil || len(list.Sessions) != 1 {
		t.Fatalf("list: %d %s", r.status, r.body)
	}
	s := list.Sessions[0]
	if s.ID == "" || !strings.Contains(s.Label, "dsh-test-browser") || s.SHA256 != "" || strings.Contains(r.body, hex.EncodeToString(sum[:])) ||
		!s.ExpiresAt.After(s.CreatedAt) {
		t.Fatalf("listed %s", r.body)
	}
	if r := send(t, c, http.MethodDelete, second.URL()+"/api/admin/sessions/ses_nothing", "", bearer...); r.status != http.StatusNotFound || r.code != "unknown_session" {
		t.Fatalf("revoke unknown: %d %s", r.status, r.body)
	}
	if statusWith(t, c, second, cookie) != http.StatusOK {
		t.Fatal("a failed revoke changed something")
	}
	if r := send(t, c, http.MethodDelete, second.URL()+"/api/admin/sessions/"+s.ID, "", bearer...); r.status != http.StatusOK {
		t.Fatalf("revoke: %d %s", r.status, r.body)
	}
	if got := statusWith(t, c, second, cookie); got != http.StatusUnauthorized {
		t.Fatalf("revoked session: %d, want 401", got)
	}

	// Revoke all.
	link, _ = second.LoginLink()
	a, _ := useLink(t, c, link, "a")
	link, _ = second.LoginLink()
	b, _ := useLink(t, c, link, "b")
	r = send(t, c, http.MethodDelete, second.URL()+"/api/admin/sessions", "", bearer...)
	if r.status != http.StatusOK || !strings.Contains(r.body, `"revoked":2`) {
		t.Fatalf("revoke all: %d %s", r.status, r.body)
	}
	if statusWith(t, c, second, a) != http.StatusUnauthorized || statusWith(t, c, second, b) != http.StatusUnauthorized {
		t.Fatal("sessions survived revoke all")
	}
}

// TestAdminErrorBodies: the admin API's refusals are rendered by the web
// server in the one error shape, with the admin's own codes and statuses.
func TestAdminErrorBodies(t *testing.T) {
	h := startHost(t, t.TempDir())
	c := client(t)
	bearer := []string{"Authorization", "Bearer " + h.Token()}
	for _, tc := range []struct {
		method, path string
		status       int
		body         string
	}{
		{http.MethodPost, "/api/admin/plugins/status/explode", http.StatusBadRequest,
			`{"error":{"code":"invalid_action","message":"action must be load, unload or reload"}}`},
		{http.MethodPost, "/api/admin/plugins/nope/load", http.StatusNotFound,
			`{"error":{"code":"unknown_entry","message":"unknown plugin entry: \"nope\""}}`},
		{http.MethodDelete, "/api/admin/sessions/ses_nothing", http.StatusNotFound,
			`{"error":{"code":"unknown_session","message":"no live session has id \"ses_nothing\""}}`},
		{http.MethodPost, "/api/admin/login-links", http.StatusBadRequest,
			`{"error":{"code":"invalid_next","message":"connection: next must be a path on this server, like /dsh-excalidraw/ (got \"//evil.example/\")"}}`},
	} {
		body := ""
		if tc.path == "/api/admin/login-links" {
			body = `{"next":"//evil.example/"}`
		}
		r := send(t, c, tc.method, h.URL()+tc.path, body, bearer...)
		if r.status != tc.status || strings.TrimSpace(r.body) != tc.body || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
			t.Errorf("%s %s: %d %s %s\nwant %d %s", tc.method, tc.path, r.status, r.header.Get("Content-Type"), r.body, tc.status, tc.body)
		}
	}
}

// TestMCPWithoutCredentials: an MCP client that has not been given a token
// learns it needs one (401 with a Bearer challenge, as the MCP
// authorization spec expects), instead of a CSRF refusal.
func TestMCPWithoutCredentials(t *testing.T) {
	h := startHost(t, t.TempDir())
	c := client(t)
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`
	r := send(t, c, http.MethodPost, h.URL()+"/mcp", initialize,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	if r.status != http.StatusUnauthorized || r.code != "unauthenticated" || !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("got %d %q %s, want 401 with a Bearer challenge", r.status, r.header.Get("WWW-Authenticate"), r.body)
	}
	// A page on another site is still told no as such.
	r = send(t, c, http.MethodPost, h.URL()+"/mcp", initialize,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Origin", "http://evil.example")
	if r.status != http.StatusForbidden || r.code != "forbidden_origin" {
		t.Fatalf("foreign origin: %d %s", r.status, r.body)
	}
	r = send(t, c, http.MethodPost, h.URL()+"/mcp", initialize,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Authorization", "Bearer dsh_wrong")
	if r.status != http.StatusUnauthorized || r.code != "invalid_token" || !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("bad token: %d %s", r.status, r.body)
	}
	r = send(t, c, http.MethodPost, h.URL()+"/mcp", initialize,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Authorization", "Bearer "+h.Token())
	if r.status != http.StatusOK {
		t.Fatalf("good token: %d %s", r.status, r.body)
	}
}

// TestRuntimeFileMissingIsNoHost: the CLI tells "no host runs here" (edit
// the sessions file directly) from a runtime file it cannot read.
func TestRuntimeFileMissingIsNoHost(t *testing.T) {
	_, err := kernel.ReadRuntimeFile(t.TempDir())
	if !errors.Is(err, kernel.ErrNoHost) || !strings.Contains(err.Error(), "dsh serve") {
		t.Fatalf("got %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, kernel.RuntimeFileName), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := kernel.ReadRuntimeFile(dir); err == nil || errors.Is(err, kernel.ErrNoHost) {
		t.Fatalf("a corrupt runtime file is not \"no host\": %v", err)
	}
}
