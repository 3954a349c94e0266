package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// writeConfigWith is writeConfig with other plugin entries.
func writeConfigWith(t *testing.T, plugins string) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "dsh.yaml")
	cfg := "host:\n  listen: 127.0.0.1:0\n  dataDir: ./state\n  log: {level: error, format: json}\nplugins:\n" + plugins
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func dataDirOf(cfg string) string { return filepath.Join(filepath.Dir(cfg), "state") }

// serve runs `dsh serve --config cfg` in-process until the returned stop
// is called (also at the end of the test) and returns the host's runtime
// file once it is serving.
func serve(t *testing.T, cfg string) (cli.RuntimeInfo, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out dshtest.Buffer
	done := make(chan error, 1)
	go func() {
		root := newRoot()
		root.SetArgs([]string{"serve", "--config", cfg})
		root.SetOut(&out)
		root.SetErr(io.Discard)
		done <- root.ExecuteContext(ctx)
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "log in") {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %q", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	info, err := cli.ReadRuntimeFile(dataDirOf(cfg))
	if err != nil {
		t.Fatal(err)
	}
	return info, stop
}

func browser(t *testing.T) *http.Client {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func get(t *testing.T, c *http.Client, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	resp, b := dshtest.Send(t, c, http.MethodGet, url, "", hdr...)
	return resp, string(b)
}

// loginWith opens link and returns the session cookie it set.
func loginWith(t *testing.T, c *http.Client, link, userAgent string) string {
	t.Helper()
	resp, body := get(t, c, link, "User-Agent", userAgent)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login link %s: %d %s", link, resp.StatusCode, body)
	}
	cookie, _, _ := strings.Cut(resp.Header.Get("Set-Cookie"), ";")
	return cookie
}

func admitted(t *testing.T, c *http.Client, url, cookie string) bool {
	t.Helper()
	resp, _ := get(t, c, url+"/api/status", "Cookie", cookie, "Sec-Fetch-Site", "same-origin")
	return resp.StatusCode == http.StatusOK
}

// loginLink runs `dsh login` and checks it printed exactly one line.
func loginLink(t *testing.T, args ...string) string {
	t.Helper()
	out, err := run(t, context.Background(), append([]string{"login"}, args...)...)
	if err != nil {
		t.Fatalf("dsh login: %v", err)
	}
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Fatalf("dsh login must print one line, printed %q", out)
	}
	return strings.TrimSpace(out)
}

func TestLoginCommand(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: status, name: status}\n  - {id: excalidraw, name: excalidraw}\n")
	info, stop := serve(t, cfg)
	c := browser(t)

	link := loginLink(t, "--config", cfg)
	if !strings.HasPrefix(link, info.URL+"/login?token=") || !strings.Contains(link, "next=%2Fdsh-excalidraw%2F") {
		t.Fatalf("link %q: want one to %s that opens the editor", link, info.URL)
	}
	resp, _ := get(t, c, link)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/dsh-excalidraw/" {
		t.Fatalf("first use: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body := get(t, c, link)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "dsh login") {
		t.Fatalf("second use: %d %s", resp.StatusCode, body)
	}

	// --url/--token reach any host; --next picks the landing page.
	link = loginLink(t, "--url", info.URL, "--token", info.Token, "--next", "/api/status")
	if !strings.Contains(link, "next=%2Fapi%2Fstatus") {
		t.Fatalf("link %q", link)
	}
	t.Setenv("DSH_URL", info.URL)
	t.Setenv("DSH_TOKEN", info.Token)
	if link = loginLink(t, "--next", "/"); strings.Contains(link, "next=") {
		t.Fatalf("link %q: --next / is the home page", link)
	}
	t.Setenv("DSH_URL", "")
	t.Setenv("DSH_TOKEN", "")
	if _, err := run(t, context.Background(), "login", "--config", cfg, "--next", "//evil.example"); err == nil || !strings.Contains(err.Error(), "invalid_next") {
		t.Fatalf("bad --next: %v", err)
	}
	if _, err := run(t, context.Background(), "login", "--config", cfg, "--token", "dsh_wrong"); err == nil || !strings.Contains(err.Error(), "invalid_token") {
		t.Fatalf("bad token: %v", err)
	}
	stop()
	if _, err := run(t, context.Background(), "login", "--config", cfg); err == nil || !strings.Contains(err.Error(), "dsh serve") {
		t.Fatalf("no running host: %v", err)
	}

	// Without the editor, the link opens the home page.
	plain := writeConfig(t)
	serve(t, plain)
	if link := loginLink(t, "--config", plain); strings.Contains(link, "next=") {
		t.Fatalf("link %q: no editor configured", link)
	}
}

var sessionIDPattern = regexp.MustCompile(`ses_[0-9a-f]+`)

func TestSessionsCommands(t *testing.T) {
	cfg := writeConfig(t)
	info, stop := serve(t, cfg)
	c := browser(t)

	cookie := loginWith(t, c, loginLink(t, "--config", cfg), "Mozilla/5.0 dsh-cli-test")
	ls, err := run(t, context.Background(), "sessions", "ls", "--config", cfg)
	if err != nil || !strings.Contains(ls, "dsh-cli-test") {
		t.Fatalf("sessions ls: %v\n%q", err, ls)
	}
	id := sessionIDPattern.FindString(ls)
	if id == "" {
		t.Fatalf("no id in\n%s", ls)
	}
	if out, err := run(t, context.Background(), "sessions", "revoke", id, "--config", cfg); err != nil || strings.TrimSpace(out) != "revoked "+id {
		t.Fatalf("revoke: %v %q", err, out)
	}
	if admitted(t, c, info.URL, cookie) {
		t.Fatal("the running host still admits a revoked session")
	}
	if _, err := run(t, context.Background(), "sessions", "revoke", id, "--config", cfg); err == nil || !strings.Contains(err.Error(), "unknown_session") {
		t.Fatalf("revoke twice: %v", err)
	}
	for _, args := range [][]string{{"revoke"}, {"revoke", id, "--all"}} {
		if _, err := run(t, context.Background(), append(append([]string{"sessions"}, args...), "--config", cfg)...); err == nil {
			t.Fatalf("sessions %v accepted", args)
		}
	}

	a := loginWith(t, c, loginLink(t, "--config", cfg), "a")
	b := loginWith(t, c, loginLink(t, "--config", cfg), "b")
	if out, err := run(t, context.Background(), "sessions", "revoke", "--all", "--config", cfg); err != nil || strings.TrimSpace(out) != "revoked 2 sessions" {
		t.Fatalf("revoke --all: %v %q", err, out)
	}
	if admitted(t, c, info.URL, a) || admitted(t, c, info.URL, b) {
		t.Fatal("revoke --all left a session")
	}

	// A session outlives the process that minted it.
	kept := loginWith(t, c, loginLink(t, "--config", cfg), "kept-browser")
	stop()
	ls, err = run(t, context.Background(), "sessions", "ls", "--config", cfg)
	if err != nil || !strings.Contains(ls, "kept-browser") {
		t.Fatalf("sessions ls with no host: %v\n%s", err, ls)
	}
	info, stop = serve(t, cfg)
	if !admitted(t, c, info.URL, kept) {
		t.Fatal("session lost across a restart")
	}
	stop()

	// With no host running the file is edited directly; a host started
	// afterwards no longer admits the session.
	if out, err := run(t, context.Background(), "sessions", "revoke", "--all", "--config", cfg); err != nil || strings.TrimSpace(out) != "revoked 1 session" {
		t.Fatalf("revoke --all with no host: %v %q", err, out)
	}
	info, stop = serve(t, cfg)
	if admitted(t, c, info.URL, kept) {
		t.Fatal("a session revoked while no host ran is admitted")
	}
	loginWith(t, c, loginLink(t, "--config", cfg), "after-crash")
	stop()

	// A runtime file left by a host that died (nothing listens at its URL)
	// counts as no host.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close()
	if _, err := cli.WriteRuntimeFile(dataDirOf(cfg), cli.RuntimeInfo{URL: dead, PID: os.Getpid() + 1, Token: "dsh_x"}); err != nil {
		t.Fatal(err)
	}
	ls, err = run(t, context.Background(), "sessions", "ls", "--config", cfg)
	if err != nil || !strings.Contains(ls, "after-crash") {
		t.Fatalf("sessions ls with a stale runtime file: %v\n%s", err, ls)
	}
	// But an explicit --url that does not answer is an error, not a guess.
	if _, err := run(t, context.Background(), "sessions", "ls", "--config", cfg, "--url", dead, "--token", "dsh_x"); err == nil {
		t.Fatal("sessions ls --url of a dead host succeeded")
	}
}
