package main

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

var hiddenToken = regexp.MustCompile(`name="token" value="([^"]+)"`)

// acceptInvite follows an invite link as a browser does: it opens the
// form, posts the password from it, and returns the session cookie.
func acceptInvite(t *testing.T, c *http.Client, base, link, password string) string {
	t.Helper()
	resp, body := get(t, c, link)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("invite form: %d %s", resp.StatusCode, body)
	}
	m := hiddenToken.FindStringSubmatch(body)
	if m == nil || !strings.Contains(body, `action="/login/invite"`) {
		t.Fatalf("no invite form in\n%s", body)
	}
	form := url.Values{"token": {m[1]}, "password": {password}, "confirm": {password}}
	resp, raw := dshtest.Send(t, c, http.MethodPost, base+"/login/invite", form.Encode(),
		"Content-Type", "application/x-www-form-urlencoded", "Origin", base)
	body = string(raw)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("accept: %d %s", resp.StatusCode, body)
	}
	cookie, _, _ := strings.Cut(resp.Header.Get("Set-Cookie"), ";")
	if !strings.HasPrefix(cookie, "dsh_session=") {
		t.Fatalf("Set-Cookie %q", resp.Header.Get("Set-Cookie"))
	}
	return cookie
}

func userCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return run(t, context.Background(), append([]string{"user"}, args...)...)
}

func TestUserCommands(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: status, name: status}\n  - {id: excalidraw, name: excalidraw}\n")
	info, stop := serve(t, cfg)
	c := browser(t)
	scenes := func(cookie string) int {
		resp, _ := get(t, c, info.URL+"/dsh-excalidraw/api/scenes", "Cookie", cookie, "Sec-Fetch-Site", "same-origin")
		return resp.StatusCode
	}

	out, err := userCmd(t, "add", "Bob", "--email", "bob@example.com", "--config", cfg)
	link := strings.TrimSpace(out)
	if err != nil || strings.Count(out, "\n") != 1 || !strings.HasPrefix(link, info.URL+"/login/invite?token=") {
		t.Fatalf("user add: %v %q", err, out)
	}
	bob := acceptInvite(t, c, info.URL, link, "correct horse battery")
	if got := scenes(bob); got != http.StatusOK {
		t.Fatalf("bob's session on the scenes API: %d", got)
	}
	if resp, _ := get(t, c, link); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("invite reused: %d", resp.StatusCode)
	}
	if _, err := userCmd(t, "add", "bob", "--config", cfg); err == nil || !strings.Contains(err.Error(), "already_exists") {
		t.Fatalf("add twice: %v", err)
	}
	if _, err := userCmd(t, "add", "not a name", "--config", cfg); err == nil || !strings.Contains(err.Error(), "invalid_name") {
		t.Fatalf("bad name: %v", err)
	}

	// carol is invited and has not answered yet; a reinvite replaces her link.
	out, err = userCmd(t, "add", "carol", "--ttl", "2h", "--config", cfg)
	if err != nil {
		t.Fatal(err)
	}
	carolLink := strings.TrimSpace(out)
	ls, err := userCmd(t, "ls", "--config", cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(ls), "\n")
	if len(rows) != 4 || !strings.HasPrefix(rows[0], "ID") || !strings.Contains(rows[0], "STATUS") {
		t.Fatalf("user ls:\n%s", ls)
	}
	if f := strings.Fields(rows[1]); len(f) != 5 || f[3] != "yes" || f[4] != "active" {
		t.Fatalf("owner row %q", rows[1])
	}
	if f := strings.Fields(rows[2]); len(f) != 5 || !strings.HasPrefix(f[0], "per_") || f[1] != "bob" || f[2] != "bob@example.com" || f[3] != "-" || f[4] != "active" {
		t.Fatalf("bob's row %q", rows[2])
	}
	if !strings.Contains(rows[3], "carol") || !strings.Contains(rows[3], "invited (expires ") {
		t.Fatalf("carol's row %q", rows[3])
	}
	for _, secretish := range []string{"argon2", "sha256", strings.TrimPrefix(carolLink, info.URL+"/login/invite?token=")} {
		if strings.Contains(ls, secretish) {
			t.Fatalf("ls shows %q:\n%s", secretish, ls)
		}
	}
	out, err = userCmd(t, "reinvite", "carol", "--config", cfg)
	if err != nil || !strings.HasPrefix(out, info.URL+"/login/invite?token=") {
		t.Fatalf("reinvite: %v %q", err, out)
	}
	if resp, _ := get(t, c, carolLink); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("replaced invite still works: %d", resp.StatusCode)
	}
	carol := acceptInvite(t, c, info.URL, strings.TrimSpace(out), "another good password")
	if _, err := userCmd(t, "reinvite", "nobody", "--config", cfg); err == nil || !strings.Contains(err.Error(), "not_found") {
		t.Fatalf("reinvite nobody: %v", err)
	}

	// With the host running, rm cuts bob off at once.
	if out, err := userCmd(t, "rm", "bob", "--config", cfg); err != nil || !strings.HasPrefix(out, "removed bob (per_") {
		t.Fatalf("rm: %v %q", err, out)
	}
	if got := scenes(bob); got != http.StatusUnauthorized {
		t.Fatalf("removed person's session: %d, want 401", got)
	}
	if _, err := userCmd(t, "rm", "bob", "--config", cfg); err == nil || !strings.Contains(err.Error(), "not_found") {
		t.Fatalf("rm twice: %v", err)
	}
	owner := strings.Fields(rows[1])[1]
	if _, err := userCmd(t, "rm", owner, "--config", cfg); err == nil || !strings.Contains(err.Error(), "invalid_operation") {
		t.Fatalf("rm the owner: %v", err)
	}
	if got := scenes(carol); got != http.StatusOK {
		t.Fatalf("carol's session after bob's removal: %d", got)
	}

	// With no host, rm edits the file; the next host refuses carol.
	stop()
	if out, err := userCmd(t, "rm", "carol", "--config", cfg); err != nil || !strings.HasPrefix(out, "removed carol") {
		t.Fatalf("rm with no host: %v %q", err, out)
	}
	if ls, _ := userCmd(t, "ls", "--config", cfg); strings.Contains(ls, "carol") || strings.Contains(ls, "bob") {
		t.Fatalf("ls after rm:\n%s", ls)
	}
	info, _ = serve(t, cfg)
	if resp, _ := get(t, c, info.URL+"/api/status", "Cookie", carol, "Sec-Fetch-Site", "same-origin"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("removed person's session in the next host: %d", resp.StatusCode)
	}
}

// TestUserAddWithoutAHost: the link uses the configured address, and the
// owner exists before anyone else (so no one can take the owner's name).
func TestUserAddWithoutAHost(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: status, name: status}\n")
	if _, err := userCmd(t, "add", "dana", "--config", cfg); err == nil || !strings.Contains(err.Error(), "publicURL") {
		t.Fatalf("listen :0 and no host: %v", err)
	}
	out, err := userCmd(t, "add", "dana", "--config", cfg, "--url", "https://dsh.example.org/")
	if err != nil || !strings.HasPrefix(out, "https://dsh.example.org/login/invite?token=") {
		t.Fatalf("--url: %v %q", err, out)
	}
	ls, err := userCmd(t, "ls", "--config", cfg)
	if err != nil || !strings.Contains(ls, "yes") || !strings.Contains(ls, "dana") {
		t.Fatalf("ls: %v\n%s", err, ls)
	}
}

// TestTokenRevokeThroughHost: with a host running, `dsh token revoke`
// asks it, so the token's open streams end at once (editing the file
// would only refuse its next request).
func TestTokenRevokeThroughHost(t *testing.T) {
	cfg := writeConfig(t)
	plain, err := run(t, context.Background(), "token", "create", "agent", "--config", cfg)
	if err != nil {
		t.Fatal(err)
	}
	plain = strings.TrimSpace(plain)
	info, _ := serve(t, cfg)
	c := browser(t)
	ended := dshtest.MCPStream(t, c, info.URL+"/mcp", plain)

	if out, err := run(t, context.Background(), "token", "revoke", "agent", "--config", cfg); err != nil || strings.TrimSpace(out) != "revoked agent" {
		t.Fatalf("revoke: %v %q", err, out)
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the revoked token's MCP stream is still open")
	}
	if resp, _ := get(t, c, info.URL+"/api/status", "Authorization", "Bearer "+plain); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("revoked token: %d", resp.StatusCode)
	}
	if _, err := run(t, context.Background(), "token", "revoke", "agent", "--config", cfg); err == nil || !strings.Contains(err.Error(), "unknown_token") {
		t.Fatalf("revoke twice: %v", err)
	}
}
