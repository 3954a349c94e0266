package connection

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSessionStoreRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dsh", SessionFileName)
	clk := newFakeClock()
	s := openSessionStore(path, clk.Now, nil)
	if list, err := s.List(t.Context()); err != nil || len(list) != 0 {
		t.Fatalf("missing file: %v %v", list, err)
	}
	if n, err := s.RevokeAll(t.Context()); err != nil || n != 0 {
		t.Fatalf("RevokeAll of nothing: %d %v", n, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("revoking nothing created the file")
	}
	secretA, a, err := s.create(t.Context(), "Firefox", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	secretB, b, err := s.create(t.Context(), "Chromium", "", 2*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if a.SHA256 != HashToken(secretA) || a.ID != "ses_"+a.SHA256[:12] || a.ID == b.ID ||
		!a.CreatedAt.Equal(clk.Now()) || !a.ExpiresAt.Equal(clk.Now().Add(time.Hour)) || a.Label != "Firefox" {
		t.Fatalf("record %+v", a)
	}
	if rec, ok, err := s.lookup(t.Context(), secretA); err != nil || !ok || rec.ID != a.ID {
		t.Fatalf("lookup A: %+v %v %v", rec, ok, err)
	}
	for _, bad := range []string{"", secretA + "x", a.SHA256, a.ID} {
		if _, ok, _ := s.lookup(t.Context(), bad); ok {
			t.Fatalf("lookup(%q) admitted", bad)
		}
	}

	// Only hashes on disk, private, in the documented shape.
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{secretA, secretB} {
		if strings.Contains(string(raw), secret) {
			t.Fatal("plaintext session secret in the sessions file")
		}
	}
	var f struct {
		Sessions []map[string]any `json:"sessions"`
	}
	if err := json.Unmarshal(raw, &f); err != nil || len(f.Sessions) != 2 {
		t.Fatalf("file shape: %v\n%s", err, raw)
	}
	for _, k := range []string{"id", "label", "createdAt", "expiresAt", "sha256"} {
		if _, ok := f.Sessions[0][k]; !ok {
			t.Fatalf("field %q missing:\n%s", k, raw)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v", fi.Mode().Perm())
	}
	if di, _ := os.Stat(filepath.Dir(path)); di.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v", di.Mode().Perm())
	}

	// Another process's view (the CLI) reads the same sessions.
	other := OpenSessionStore(path)
	other.now = clk.Now
	if list, err := other.List(t.Context()); err != nil || len(list) != 2 || list[0].ID != a.ID || list[1].Label != "Chromium" {
		t.Fatalf("other List = %+v %v", list, err)
	}

	// An unknown id changes nothing, not even the bytes.
	if err := s.Revoke(t.Context(), "ses_000000000000"); !errors.Is(err, ErrSessionNotFound) {
		t.Fatalf("revoke unknown: %v", err)
	}
	if again, _ := os.ReadFile(path); string(again) != string(raw) {
		t.Fatal("a failed revoke rewrote the file")
	}
	if err := other.Revoke(t.Context(), a.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.lookup(t.Context(), secretA); ok {
		t.Fatal("a session revoked by another process still admitted")
	}

	// A expired; writing (a new session) drops it from the file.
	clk.Advance(90 * time.Minute)
	if _, ok, _ := s.lookup(t.Context(), secretB); !ok {
		t.Fatal("B expired early")
	}
	_, c, err := s.create(t.Context(), "third", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	if _, _, err := s.create(t.Context(), "fourth", "", time.Hour); err != nil {
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(path)
	if strings.Contains(string(raw), b.SHA256) || strings.Contains(string(raw), c.SHA256) {
		t.Fatalf("expired sessions kept in the file:\n%s", raw)
	}
	if err := s.Revoke(t.Context(), b.ID); !errors.Is(err, ErrSessionNotFound) {
		t.Fatalf("revoke expired: %v", err)
	}
	if n, err := s.RevokeAll(t.Context()); err != nil || n != 1 {
		t.Fatalf("RevokeAll = %d %v", n, err)
	}
	if list, _ := s.List(t.Context()); len(list) != 0 {
		t.Fatalf("left %+v", list)
	}
}

func TestSessionStoreInMemory(t *testing.T) {
	clk := newFakeClock()
	s := openSessionStore("", clk.Now, nil)
	secret, rec, err := s.create(t.Context(), "x", "", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.lookup(t.Context(), secret); !ok {
		t.Fatal("in-memory session not found")
	}
	if err := s.Revoke(t.Context(), rec.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.lookup(t.Context(), secret); ok {
		t.Fatal("revoked in-memory session found")
	}
}

// TestSessionStoreCorruptFile: a file that does not parse locks browsers
// out, is reported at startup, and is never overwritten.
func TestSessionStoreCorruptFile(t *testing.T) {
	for name, content := range map[string]string{
		"not json": "{not json",
		"bad hash": `{"sessions":[{"id":"ses_1","sha256":"abc","expiresAt":"2999-01-01T00:00:00Z"}]}`,
		"no id":    `{"sessions":[{"sha256":"` + HashToken("x") + `","expiresAt":"2999-01-01T00:00:00Z"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), SessionFileName)
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := New(Config{SessionFile: path}, nil); err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("New over a corrupt sessions file: %v", err)
			}
			s := OpenSessionStore(path)
			if _, err := s.List(t.Context()); err == nil {
				t.Fatal("corrupt file listed")
			}
			if _, _, err := s.create(t.Context(), "x", "", time.Hour); err == nil {
				t.Fatal("create over a corrupt file")
			}
			if _, err := s.RevokeAll(t.Context()); err == nil {
				t.Fatal("RevokeAll over a corrupt file")
			}
			if _, ok, err := s.lookup(t.Context(), "x"); ok || err == nil {
				t.Fatalf("lookup in a corrupt file: %v %v", ok, err)
			}
			if got, _ := os.ReadFile(path); string(got) != content {
				t.Fatal("corrupt file overwritten")
			}
		})
	}
}

// TestSessionsPersistAcrossServices: a session minted by one Service is
// valid in the next one on the same file; a revocation through the running
// service is refused at once, and so is one made by another process.
func TestSessionsPersistAcrossServices(t *testing.T) {
	file := filepath.Join(t.TempDir(), SessionFileName)
	first := newProbe(t, Config{SessionFile: file})
	session := first.login(t)
	first.svc.Close()

	p := newProbe(t, Config{SessionFile: file})
	if res := p.do(t, http.MethodGet, "/api", nil, session); res.status != http.StatusOK {
		t.Fatalf("session from the previous service: %d %s", res.status, res.body)
	}
	list, err := p.svc.ListSessions(t.Context())
	if err != nil || len(list) != 1 {
		t.Fatalf("ListSessions = %+v %v", list, err)
	}
	if err := p.svc.RevokeSession(t.Context(), list[0].ID); err != nil {
		t.Fatal(err)
	}
	expect(t, p.do(t, http.MethodGet, "/api", nil, session), http.StatusUnauthorized, CodeUnauthenticated)
	if err := p.svc.RevokeSession(t.Context(), list[0].ID); !errors.Is(err, ErrSessionNotFound) {
		t.Fatalf("second revoke: %v", err)
	}

	// Revoked by another process (the CLI with no host running).
	second := p.login(t)
	if n, err := OpenSessionStore(file).RevokeAll(t.Context()); err != nil || n != 1 {
		t.Fatalf("RevokeAll = %d %v", n, err)
	}
	expect(t, p.do(t, http.MethodGet, "/api", nil, second), http.StatusUnauthorized, CodeUnauthenticated)

	// A sessions file that becomes unreadable locks browsers out.
	third := p.login(t)
	if err := os.WriteFile(file, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	expect(t, p.do(t, http.MethodGet, "/api", nil, third), http.StatusUnauthorized, CodeUnauthenticated)
}

func TestSessionLabel(t *testing.T) {
	cases := map[string]string{
		"":                              "",
		"Mozilla/5.0 (X11; Linux)":      "Mozilla/5.0 (X11; Linux)",
		"evil\x1b[2J\x1b]0;pwned\x07ok": "evil[2J]0;pwnedok",
		"tab\tand\nnewline  spaces":     "tab and newline spaces",
		"bad \xff utf8":                 "bad utf8",
	}
	for in, want := range cases {
		if got := sessionLabel(in); got != want {
			t.Errorf("sessionLabel(%q) = %q, want %q", in, got, want)
		}
	}
	long := sessionLabel(strings.Repeat("é", 200))
	if n := len([]rune(long)); n != maxLabelRunes || !strings.HasSuffix(long, "…") {
		t.Fatalf("long label: %d runes %q", n, long)
	}
}

// TestLoginRecordsLabel: the session a login starts is labelled with the
// browser's User-Agent, stripped of what a terminal would interpret. Go's
// server already refuses ASCII control characters in headers, but not C1
// controls (U+009B is an 8-bit CSI) or invalid UTF-8, sent here raw since
// Go's client would not send them.
func TestLoginRecordsLabel(t *testing.T) {
	p := newProbe(t, Config{})
	link := strings.TrimPrefix(p.svc.NewLoginLink(t.Context(), p.srv.URL), p.srv.URL)
	conn, err := net.Dial("tcp", strings.TrimPrefix(p.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: TestBrowser/1.0 \u009b31m\xff\u0085ok\r\nConnection: close\r\n\r\n",
		link, strings.TrimPrefix(p.srv.URL, "http://"))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	list, err := p.svc.ListSessions(t.Context())
	if err != nil || len(list) != 1 || list[0].Label != "TestBrowser/1.0 31m ok" {
		t.Fatalf("ListSessions = %+v %v", list, err)
	}
	if c := list[0]; c.ExpiresAt.Sub(c.CreatedAt) != DefaultSessionTTL {
		t.Fatalf("session lasts %v", c.ExpiresAt.Sub(c.CreatedAt))
	}
}

// TestLoginFailsCleanlyWhenSessionsCannotBeSaved: a login whose session
// cannot be written sets no cookie and says how to get a new link.
func TestLoginFailsCleanlyWhenSessionsCannotBeSaved(t *testing.T) {
	dir := t.TempDir()
	p := newProbe(t, Config{SessionFile: filepath.Join(dir, "sessions", SessionFileName)})
	// A file where the directory must go: the write fails.
	if err := os.WriteFile(filepath.Join(dir, "sessions"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	res := p.do(t, http.MethodGet, strings.TrimPrefix(p.svc.NewLoginLink(t.Context(), p.srv.URL), p.srv.URL), nil)
	if res.status != http.StatusInternalServerError || len(res.resp.Cookies()) != 0 || !strings.Contains(res.body, "dsh login") {
		t.Fatalf("got %d %v %s", res.status, res.resp.Cookies(), res.body)
	}
}

func TestLoginLinkNext(t *testing.T) {
	svc, err := New(Config{LoginLinkTTL: time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	for next, want := range map[string]string{"": "", "/": "", "/dsh-excalidraw/": "&next=%2Fdsh-excalidraw%2F", "/a?b=c": "&next=%2Fa%3Fb%3Dc"} {
		link, exp, err := svc.LoginLink(t.Context(), "http://127.0.0.1:1/", next)
		if err != nil || !strings.HasPrefix(link, "http://127.0.0.1:1/login?token=") || !strings.HasSuffix(link, want) ||
			(want == "" && strings.Contains(link, "next=")) || time.Until(exp) > time.Minute || time.Until(exp) < 50*time.Second {
			t.Errorf("LoginLink(%q) = %q %v %v", next, link, exp, err)
		}
	}
	for _, bad := range []string{"//evil.example", "https://evil.example/", "relative", `/\evil`, "/a\nb"} {
		if link, _, err := svc.LoginLink(t.Context(), "http://127.0.0.1:1", bad); !errors.Is(err, ErrInvalidNext) || link != "" {
			t.Errorf("LoginLink(%q) = %q %v", bad, link, err)
		}
	}
}

func TestRequireBearer(t *testing.T) {
	const tok = "dsh_require-bearer-test"
	svc, err := New(Config{Tokens: []TokenRecord{{ID: "t", Name: "t", SHA256: HashToken(tok)}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	cases := []struct {
		auth string
		code string
	}{
		{"Bearer " + tok, ""},
		{"", CodeBearerRequired},
		{"Basic YTpi", CodeBearerRequired},
		{"Bearer dsh_wrong", CodeInvalidToken},
	}
	for _, tc := range cases {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/api/admin/login-links", nil)
		if tc.auth != "" {
			r.Header.Set("Authorization", tc.auth)
		}
		r.AddCookie(&http.Cookie{Name: DefaultCookieName, Value: "whatever"})
		rej := svc.RequireBearer(r)
		switch {
		case tc.code == "" && rej != nil:
			t.Errorf("%q: %v", tc.auth, rej)
		case tc.code != "" && (rej == nil || rej.Code != tc.code):
			t.Errorf("%q: %v, want %s", tc.auth, rej, tc.code)
		case tc.code == CodeBearerRequired && rej.Status != http.StatusForbidden:
			t.Errorf("%q: status %d", tc.auth, rej.Status)
		}
	}
}
