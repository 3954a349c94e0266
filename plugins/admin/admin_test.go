package admin_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/admin"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/status"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// startHost starts a host with the status plugin on dataDir.
func startHost(t *testing.T, dataDir string) *dsh.Host {
	t.Helper()
	return hosttest.New(t, dsh.WithPlugins(status.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.ConfigYAML(dataDir, "", "  - {id: status, name: status}\n"))))
}

// useLink opens a login link as a browser would and returns the session
// cookie ("name=value") it set.
func useLink(t *testing.T, c *http.Client, link, userAgent string) (cookie, location string) {
	t.Helper()
	r := hosttest.Send(t, c, http.MethodGet, link, "", "User-Agent", userAgent)
	if r.Status != http.StatusSeeOther {
		t.Fatalf("login link: %d %s", r.Status, r.Body)
	}
	cookie, _, _ = strings.Cut(r.Header.Get("Set-Cookie"), ";")
	if !strings.HasPrefix(cookie, "dsh_session=") {
		t.Fatalf("Set-Cookie %q", r.Header.Get("Set-Cookie"))
	}
	return cookie, r.Header.Get("Location")
}

func statusWith(t *testing.T, c *http.Client, h *dsh.Host, cookie string) int {
	t.Helper()
	return hosttest.Send(t, c, http.MethodGet, h.URL()+"/api/status", "", "Cookie", cookie, "Sec-Fetch-Site", "same-origin").Status
}

// TestAdminLoginLinks: the one-time link works once and its second use
// says how to get a new one; the admin API mints new links for a bearer
// token, never for a browser session.
func TestAdminLoginLinks(t *testing.T) {
	h := startHost(t, t.TempDir())
	c := hosttest.Client(t)
	bearer := []string{"Authorization", "Bearer " + h.Token()}

	link, err := h.LoginLink(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	cookie, _ := useLink(t, c, link, "test-browser")
	again := hosttest.Send(t, c, http.MethodGet, link, "")
	if again.Status != http.StatusForbidden || !strings.Contains(again.Body, "dsh login") {
		t.Fatalf("second use: %d %s", again.Status, again.Body)
	}

	// A new link from the admin API, with a landing page, works once.
	r := hosttest.Send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", `{"next":"/api/status"}`, bearer...)
	var minted struct {
		URL       string    `json:"url"`
		ExpiresAt time.Time `json:"expiresAt"`
	}
	if r.Status != http.StatusCreated || json.Unmarshal([]byte(r.Body), &minted) != nil {
		t.Fatalf("mint: %d %s", r.Status, r.Body)
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
	if r := hosttest.Send(t, c, http.MethodGet, minted.URL, ""); r.Status != http.StatusForbidden {
		t.Fatalf("minted link reused: %d", r.Status)
	}
	// No body: a link to the home page.
	r = hosttest.Send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", "", bearer...)
	if r.Status != http.StatusCreated || strings.Contains(r.Body, "next=") {
		t.Fatalf("mint without body: %d %s", r.Status, r.Body)
	}

	// A browser session (same-origin, so it passes CSRF) may not mint links.
	r = hosttest.Send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", `{}`, "Cookie", cookie, "Origin", h.URL())
	if r.Status != http.StatusForbidden || r.Code != "bearer_required" || strings.Contains(r.Body, "token=") {
		t.Fatalf("mint with a session cookie: %d %s", r.Status, r.Body)
	}
	// Bad input is refused and mints nothing.
	for _, body := range []string{`{"next":"//evil.example/"}`, `{"next":"https://evil.example/"}`, `{"nxt":"/"}`, `{"next":`, `[]`} {
		r = hosttest.Send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", body, bearer...)
		if r.Status != http.StatusBadRequest || strings.Contains(r.Body, "token=") {
			t.Fatalf("body %s: %d %s", body, r.Status, r.Body)
		}
	}
	if r := hosttest.Send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", ""); r.Status != http.StatusUnauthorized {
		t.Fatalf("mint without credentials: %d", r.Status)
	}
}

// TestSessionsSurviveRestart: a session minted by one host process is
// valid in the next one on the same data directory; the file holds only
// hashes, privately; revocation through the admin API refuses the cookie
// at once.
func TestSessionsSurviveRestart(t *testing.T) {
	dataDir := t.TempDir()
	c := hosttest.Client(t)
	first := startHost(t, dataDir)
	link, _ := first.LoginLink(t.Context())
	cookie, _ := useLink(t, c, link, "Mozilla/5.0 (X11; Linux x86_64) dsh-test-browser/1.0")
	if statusWith(t, c, first, cookie) != http.StatusOK {
		t.Fatal("fresh session not admitted")
	}
	if err := first.Stop(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}

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
	r := hosttest.Send(t, c, http.MethodGet, second.URL()+"/api/admin/sessions", "", bearer...)
	var list struct {
		Sessions []struct {
			ID, Label, SHA256    string
			CreatedAt, ExpiresAt time.Time
		} `json:"sessions"`
	}
	if r.Status != http.StatusOK || json.Unmarshal([]byte(r.Body), &list) != nil || len(list.Sessions) != 1 {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	s := list.Sessions[0]
	if s.ID == "" || !strings.Contains(s.Label, "dsh-test-browser") || s.SHA256 != "" || strings.Contains(r.Body, hex.EncodeToString(sum[:])) ||
		!s.ExpiresAt.After(s.CreatedAt) {
		t.Fatalf("listed %s", r.Body)
	}
	if r := hosttest.Send(t, c, http.MethodDelete, second.URL()+"/api/admin/sessions/ses_nothing", "", bearer...); r.Status != http.StatusNotFound || r.Code != "unknown_session" {
		t.Fatalf("revoke unknown: %d %s", r.Status, r.Body)
	}
	if statusWith(t, c, second, cookie) != http.StatusOK {
		t.Fatal("a failed revoke changed something")
	}
	if r := hosttest.Send(t, c, http.MethodDelete, second.URL()+"/api/admin/sessions/"+s.ID, "", bearer...); r.Status != http.StatusOK {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if got := statusWith(t, c, second, cookie); got != http.StatusUnauthorized {
		t.Fatalf("revoked session: %d, want 401", got)
	}

	// Revoke all.
	link, _ = second.LoginLink(t.Context())
	a, _ := useLink(t, c, link, "a")
	link, _ = second.LoginLink(t.Context())
	b, _ := useLink(t, c, link, "b")
	r = hosttest.Send(t, c, http.MethodDelete, second.URL()+"/api/admin/sessions", "", bearer...)
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `"revoked":2`) {
		t.Fatalf("revoke all: %d %s", r.Status, r.Body)
	}
	if statusWith(t, c, second, a) != http.StatusUnauthorized || statusWith(t, c, second, b) != http.StatusUnauthorized {
		t.Fatal("sessions survived revoke all")
	}
}

// TestAdminErrorBodies: the admin API's refusals are rendered by the web
// server in the one error shape, with the admin's own codes and statuses.
func TestAdminErrorBodies(t *testing.T) {
	h := startHost(t, t.TempDir())
	c := hosttest.Client(t)
	// The caller's X-Request-ID is the request's id, and every error's
	// details name it.
	bearer := []string{"Authorization", "Bearer " + h.Token(), "X-Request-ID", "req-admin"}
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
			`{"error":{"code":"invalid_next","message":"connection: next must be a path on this server, like /notes/ (got \"//evil.example/\")"}}`},
	} {
		body := ""
		if tc.path == "/api/admin/login-links" {
			body = `{"next":"//evil.example/"}`
		}
		r := hosttest.Send(t, c, tc.method, h.URL()+tc.path, body, bearer...)
		tc.body = strings.TrimSuffix(tc.body, "}}") + `,"details":{"request_id":"req-admin"}}}`
		if r.Status != tc.status || strings.TrimSpace(r.Body) != tc.body || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s %s: %d %s %s\nwant %d %s", tc.method, tc.path, r.Status, r.Header.Get("Content-Type"), r.Body, tc.status, tc.body)
		}
	}
}

// TestMCPWithoutCredentials: an MCP client that has not been given a token
// learns it needs one (401 with a Bearer challenge, as the MCP
// authorization spec expects), instead of a CSRF refusal.
func TestMCPWithoutCredentials(t *testing.T) {
	h := startHost(t, t.TempDir())
	c := hosttest.Client(t)
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`
	r := hosttest.Send(t, c, http.MethodPost, h.URL()+"/mcp", initialize,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	if r.Status != http.StatusUnauthorized || r.Code != "unauthenticated" || !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("got %d %q %s, want 401 with a Bearer challenge", r.Status, r.Header.Get("WWW-Authenticate"), r.Body)
	}
	// A page on another site is still told no as such.
	r = hosttest.Send(t, c, http.MethodPost, h.URL()+"/mcp", initialize,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Origin", "http://evil.example")
	if r.Status != http.StatusForbidden || r.Code != "forbidden_origin" {
		t.Fatalf("foreign origin: %d %s", r.Status, r.Body)
	}
	r = hosttest.Send(t, c, http.MethodPost, h.URL()+"/mcp", initialize,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Authorization", "Bearer dsh_wrong")
	if r.Status != http.StatusUnauthorized || r.Code != "invalid_token" || !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("bad token: %d %s", r.Status, r.Body)
	}
	r = hosttest.Send(t, c, http.MethodPost, h.URL()+"/mcp", initialize,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Authorization", "Bearer "+h.Token())
	if r.Status != http.StatusOK {
		t.Fatalf("good token: %d %s", r.Status, r.Body)
	}
}

// signIn signs name in with password on the login form, as a browser
// posting the host's own page does, and returns the session cookie.
func signIn(t *testing.T, c *http.Client, h *dsh.Host, name, password string) string {
	t.Helper()
	form := url.Values{"name": {name}, "password": {password}}
	r := hosttest.Send(t, c, http.MethodPost, h.URL()+"/login", form.Encode(),
		"Content-Type", "application/x-www-form-urlencoded", "Origin", h.URL())
	if r.Status != http.StatusSeeOther {
		t.Fatalf("sign in as %s: %d %s", name, r.Status, r.Body)
	}
	cookie, _, _ := strings.Cut(r.Header.Get("Set-Cookie"), ";")
	return cookie
}

// member adds a person with a password to h's accounts.
func member(t *testing.T, h *dsh.Host, name, password string) accounts.Person {
	t.Helper()
	_, secret, err := h.Connection.Accounts().Add(t.Context(), name, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := h.Connection.Accounts().AcceptInvite(t.Context(), secret, password)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAdminAPIIsForAdmins: every admin route (as mounted: a route added
// later is covered too) refuses a member's session and any bot, the
// owner's own included, with 403 admin_required before doing anything;
// the owner's session and a host token get past that check.
func TestAdminAPIIsForAdmins(t *testing.T) {
	h := startHost(t, t.TempDir())
	c := hosttest.Client(t)
	bob := member(t, h, "bob", "correct horse battery")
	owner, ok, err := h.Connection.Accounts().Owner(t.Context())
	if err != nil || !ok {
		t.Fatalf("owner: %v %v", ok, err)
	}
	mintBot := func(name, person string) string {
		plain, _, err := h.Connection.Tokens().Mint(t.Context(), connection.TokenSpec{Name: name, Person: person,
			Grant: identity.NewGrant(map[string]any{"role": identity.RoleEditor, "canCreateBoards": true})})
		if err != nil {
			t.Fatal(err)
		}
		return plain
	}
	hostToken, _, err := h.Connection.Tokens().Create(t.Context(), "ci")
	if err != nil {
		t.Fatal(err)
	}
	link, _ := h.LoginLink(t.Context())
	ownerCookie, _ := useLink(t, c, link, "owner-browser")
	memberCookie := signIn(t, c, h, "bob", "correct horse battery")
	session := func(cookie string) []string {
		return []string{"Cookie", cookie, "Origin", h.URL(), "Sec-Fetch-Site", "same-origin"}
	}
	bearer := func(token string) []string { return []string{"Authorization", "Bearer " + token} }

	var routes []webserver.RouteInfo
	for _, ri := range h.Web.Routes() {
		if strings.HasPrefix(ri.Path, admin.AdminPrefix+"/") {
			routes = append(routes, ri)
		}
	}
	if len(routes) < 10 {
		t.Fatalf("admin routes: %+v", routes)
	}
	// Revoking every session goes last: it ends the owner's too.
	revokeAll := slices.IndexFunc(routes, func(ri webserver.RouteInfo) bool {
		return ri.Method == http.MethodDelete && ri.Path == admin.AdminPrefix+"/sessions"
	})
	last := routes[revokeAll]
	routes = append(slices.Delete(routes, revokeAll, revokeAll+1), last)
	param := regexp.MustCompile(`:[^/]+`)
	target := func(ri webserver.RouteInfo) string {
		u := h.URL() + param.ReplaceAllString(ri.Path, "nobody")
		if strings.HasPrefix(ri.Path, admin.PprofPrefix) {
			u += "?seconds=1" // a CPU profile or trace lasts 30 s by default
		}
		return u
	}

	for _, who := range []struct {
		name string
		hdr  []string
	}{
		{"member's session", session(memberCookie)},
		{"member's bot", bearer(mintBot("bob-bot", bob.ID))},
		{"owner's bot", bearer(mintBot("olga-bot", owner.ID))},
	} {
		for _, ri := range routes {
			r := hosttest.Send(t, c, ri.Method, target(ri), "", who.hdr...)
			if r.Status != http.StatusForbidden || r.Code != admin.CodeAdminRequired || !strings.Contains(r.Body, "this needs the host's owner or a host token") {
				t.Errorf("%s, %s %s: %d %s", who.name, ri.Method, ri.Path, r.Status, r.Body)
			}
		}
	}
	// Nothing of that did anything: the sessions are all there.
	if n := h.Connection.Sessions(t.Context()); n != 2 {
		t.Fatalf("%d sessions, want 2", n)
	}

	for _, who := range []struct {
		name string
		hdr  []string
	}{
		{"owner's session", session(ownerCookie)},
		{"host token", bearer(hostToken)},
		{"the CLI's token", bearer(h.Token())},
	} {
		for _, ri := range routes {
			r := hosttest.Send(t, c, ri.Method, target(ri), "", who.hdr...)
			if r.Code == admin.CodeAdminRequired || r.Status == http.StatusUnauthorized || r.Status >= 500 {
				t.Errorf("%s, %s %s: %d %s", who.name, ri.Method, ri.Path, r.Status, r.Body)
			}
		}
	}
}

// TestAdminLoginLinksStillNeedABearer: the owner's session passes the
// admin check but still may not mint login links.
func TestAdminLoginLinksStillNeedABearer(t *testing.T) {
	h := startHost(t, t.TempDir())
	c := hosttest.Client(t)
	link, _ := h.LoginLink(t.Context())
	owner, _ := useLink(t, c, link, "owner-browser")
	r := hosttest.Send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", "", "Cookie", owner, "Origin", h.URL())
	if r.Status != http.StatusForbidden || r.Code != "bearer_required" {
		t.Fatalf("login link for the owner's session: %d %s", r.Status, r.Body)
	}
}

// TestAdminRemovesPeopleAndRevokesTokens: DELETE /api/admin/people/:name
// and /api/admin/tokens/:id end the person's sessions and the token's
// open streams at once.
func TestAdminRemovesPeopleAndRevokesTokens(t *testing.T) {
	h := startHost(t, t.TempDir())
	c := hosttest.Client(t)
	bearer := []string{"Authorization", "Bearer " + h.Token()}
	member(t, h, "bob", "correct horse battery")
	bob := signIn(t, c, h, "bob", "correct horse battery")
	if statusWith(t, c, h, bob) != http.StatusOK {
		t.Fatal("bob's session not admitted")
	}

	r := hosttest.Send(t, c, http.MethodDelete, h.URL()+"/api/admin/people/Bob", "", bearer...)
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `"name":"bob"`) || strings.Contains(r.Body, "argon2") || strings.Contains(r.Body, "sha256") {
		t.Fatalf("remove bob: %d %s", r.Status, r.Body)
	}
	if got := statusWith(t, c, h, bob); got != http.StatusUnauthorized {
		t.Fatalf("removed person's session: %d, want 401", got)
	}
	if r := hosttest.Send(t, c, http.MethodDelete, h.URL()+"/api/admin/people/bob", "", bearer...); r.Status != http.StatusNotFound || r.Code != "not_found" {
		t.Fatalf("remove twice: %d %s", r.Status, r.Body)
	}
	owner, _, _ := h.Connection.Accounts().Owner(t.Context())
	if r := hosttest.Send(t, c, http.MethodDelete, h.URL()+"/api/admin/people/"+owner.Name, "", bearer...); r.Status != http.StatusBadRequest || r.Code != "invalid_operation" {
		t.Fatalf("remove the owner: %d %s", r.Status, r.Body)
	}

	// A token's open MCP stream ends the moment it is revoked.
	agent, rec, err := h.Connection.Tokens().Create(t.Context(), "agent")
	if err != nil {
		t.Fatal(err)
	}
	ended := dshtest.MCPStream(t, c, h.URL()+"/mcp", agent)

	r = hosttest.Send(t, c, http.MethodDelete, h.URL()+"/api/admin/tokens/agent", "", bearer...)
	if r.Status != http.StatusOK || !strings.Contains(r.Body, rec.ID) || strings.Contains(r.Body, rec.SHA256) {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the revoked token's stream is still open")
	}
	if r := hosttest.Send(t, c, http.MethodGet, h.URL()+"/api/status", "", "Authorization", "Bearer "+agent); r.Status != http.StatusUnauthorized {
		t.Fatalf("revoked token: %d", r.Status)
	}
	if r := hosttest.Send(t, c, http.MethodDelete, h.URL()+"/api/admin/tokens/"+rec.ID, "", bearer...); r.Status != http.StatusNotFound || r.Code != "unknown_token" {
		t.Fatalf("revoke twice: %d %s", r.Status, r.Body)
	}
}
