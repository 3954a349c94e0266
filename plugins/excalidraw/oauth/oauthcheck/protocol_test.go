package oauthcheck_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// asHost is a host with the Excalidraw plugin, boards "plan" and
// "other", and a browser-like client signed in as the owner.
type asHost struct {
	t       *testing.T
	h       *dsh.Host
	browser *http.Client // the owner's session; redirects are not followed
	plain   *http.Client
}

// startHost starts a host owned by olga with the Excalidraw plugin, on
// a free port over the data directory data, and waits (within ctx) for
// the plugin to be active. It stops when the test ends.
func startHost(ctx context.Context, t *testing.T, data string, opts ...dsh.Option) *dsh.Host {
	t.Helper()
	return startHostConfig(ctx, t, data, "{}", opts...)
}

// startHostConfig is startHost with the plugin's config (flow-style
// YAML).
func startHostConfig(ctx context.Context, t *testing.T, data, config string, opts ...dsh.Option) *dsh.Host {
	t.Helper()
	yaml := fmt.Sprintf("host:\n  listen: 127.0.0.1:0\n  dataDir: %s\n  owner: olga\n  log: {level: error, format: json}\n  http: {drainTimeout: 2s}\nplugins:\n  - {id: excalidraw, name: excalidraw, config: %s}\n", data, config)
	h, err := dsh.New(append([]dsh.Option{dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(yaml))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Stop(context.Background()) })
	scope, _ := h.PluginScope("excalidraw")
	if err := scope.AwaitActive(ctx); err != nil {
		t.Fatal(err)
	}
	return h
}

func startAS(t *testing.T, opts ...dsh.Option) *asHost {
	t.Helper()
	return startASConfig(t, "{}", opts...)
}

// startASConfig is startAS with the plugin's config (flow-style YAML).
func startASConfig(t *testing.T, config string, opts ...dsh.Option) *asHost {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := startHostConfig(ctx, t, t.TempDir(), config, opts...)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	jar, _ := cookiejar.New(nil)
	a := &asHost{t: t, h: h,
		browser: &http.Client{Transport: tr, Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		plain:   &http.Client{Transport: tr, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}
	for _, name := range []string{"plan", "other"} {
		resp, b := dshtest.Send(t, a.plain, http.MethodPost, h.URL()+"/dsh-excalidraw/api/scenes", `{"name":"`+name+`"}`, "Authorization", "Bearer "+h.Token(), "Content-Type", "application/json")
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create %s: %s", name, b)
		}
	}
	link, err := h.LoginLink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := a.browser.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return a
}

// form posts a form and returns the answer (redirects not followed).
func (a *asHost) form(c *http.Client, path string, v url.Values, headers ...string) *http.Response {
	a.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, a.h.URL()+path, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	return resp
}

func (a *asHost) register(redirect string) string {
	a.t.Helper()
	resp, b := dshtest.Send(a.t, a.plain, http.MethodPost, a.h.URL()+"/oauth/register",
		`{"client_name":"probe","redirect_uris":["`+redirect+`"],"token_endpoint_auth_method":"none"}`, "Content-Type", "application/json")
	var out struct {
		ClientID string `json:"client_id"`
	}
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &out) != nil || out.ClientID == "" {
		a.t.Fatalf("register: %d %s", resp.StatusCode, b)
	}
	return out.ClientID
}

func pkce() (verifier, challenge string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	verifier = base64.RawURLEncoding.EncodeToString(b)
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// approve runs the consent form as the owner and returns the redirect.
func (a *asHost) approve(client, redirect, challenge string, boards []string, role string) *url.URL {
	a.t.Helper()
	v := url.Values{"client_id": {client}, "redirect_uri": {redirect}, "response_type": {"code"},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"st8"},
		"action": {"approve"}, "role": {role}, "board": boards}
	resp := a.form(a.browser, "/oauth/authorize", v, "Origin", a.h.URL())
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		b, _ := io.ReadAll(resp.Body)
		a.t.Fatalf("approve: %d %s", resp.StatusCode, b)
	}
	u, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		a.t.Fatal(err)
	}
	return u
}

func (a *asHost) exchange(client, redirect, code, verifier string) (int, map[string]any) {
	a.t.Helper()
	v := url.Values{"grant_type": {"authorization_code"}, "client_id": {client}, "redirect_uri": {redirect}, "code": {code}}
	if verifier != "" {
		v.Set("code_verifier", verifier)
	}
	resp := a.form(a.plain, "/oauth/token", v)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

// The discovery a client starts from: the 401's challenge, the resource
// metadata, the server metadata.
func TestDiscovery(t *testing.T) {
	a := startAS(t)
	resp, err := a.plain.Post(a.h.URL()+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	want := `resource_metadata="` + a.h.URL() + `/.well-known/oauth-protected-resource/mcp"`
	if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get("WWW-Authenticate"), want) {
		t.Fatalf("401 challenge: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	_, b := dshtest.Send(t, a.plain, http.MethodGet, a.h.URL()+"/.well-known/oauth-protected-resource/mcp", "")
	var prm map[string]any
	if json.Unmarshal(b, &prm) != nil || prm["resource"] != a.h.URL()+"/mcp" || fmt.Sprint(prm["authorization_servers"]) != "["+a.h.URL()+"]" {
		t.Fatalf("resource metadata: %s", b)
	}
	_, b = dshtest.Send(t, a.plain, http.MethodGet, a.h.URL()+"/.well-known/oauth-authorization-server", "")
	var asm map[string]any
	if json.Unmarshal(b, &asm) != nil || asm["issuer"] != a.h.URL() || fmt.Sprint(asm["code_challenge_methods_supported"]) != "[S256]" ||
		asm["registration_endpoint"] != a.h.URL()+"/oauth/register" {
		t.Fatalf("server metadata: %s", b)
	}
}

// What registration refuses: non-loopback http, fragments, confidential
// clients.
func TestRegistrationRefuses(t *testing.T) {
	a := startAS(t)
	for _, body := range []string{
		`{"redirect_uris":["http://evil.example/cb"]}`,
		`{"redirect_uris":["https://ok.example/cb#frag"]}`,
		`{"redirect_uris":[]}`,
		`{"redirect_uris":["https://ok.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}`,
		`not json`,
	} {
		resp, b := dshtest.Send(t, a.plain, http.MethodPost, a.h.URL()+"/oauth/register", body, "Content-Type", "application/json")
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `"error"`) {
			t.Errorf("%s: %d %s", body, resp.StatusCode, b)
		}
	}
}

// The authorization request is checked before anything is shown: an
// unknown client, a redirect URI it did not register, no PKCE.
func TestAuthorizeChecksFirst(t *testing.T) {
	a := startAS(t)
	cb := "http://127.0.0.1:9/cb"
	client := a.register(cb)
	_, challenge := pkce()
	base := url.Values{"client_id": {client}, "redirect_uri": {cb}, "response_type": {"code"}, "code_challenge": {challenge}, "code_challenge_method": {"S256"}}
	for what, change := range map[string]func(url.Values){
		"unknown client":   func(v url.Values) { v.Set("client_id", "dshc_nope") },
		"unregistered URI": func(v url.Values) { v.Set("redirect_uri", "http://127.0.0.1:9/other") },
		"no PKCE":          func(v url.Values) { v.Del("code_challenge") },
		"plain PKCE":       func(v url.Values) { v.Set("code_challenge_method", "plain") },
		"another resource": func(v url.Values) { v.Set("resource", "https://elsewhere.example/mcp") },
		"token, not code":  func(v url.Values) { v.Set("response_type", "token") },
	} {
		v := url.Values{}
		for k, vs := range base {
			v[k] = append([]string(nil), vs...)
		}
		change(v)
		resp, err := a.browser.Get(a.h.URL() + "/oauth/authorize?" + v.Encode())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
			t.Errorf("%s: %d, location %q (must be refused here, never redirected)", what, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	// Without a session the page sends the person to the login page.
	resp, err := a.plain.Get(a.h.URL() + "/oauth/authorize?" + base.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login?next=") {
		t.Fatalf("without a session: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// The code: exchanged once, only with its verifier, for a connect token
// that reaches the chosen boards only; deny answers access_denied.
func TestCodeExchange(t *testing.T) {
	a := startAS(t)
	cb := "http://127.0.0.1:9/cb"
	client := a.register(cb)
	verifier, challenge := pkce()
	back := a.approve(client, cb, challenge, []string{"plan"}, "viewer")
	code := back.Query().Get("code")
	if code == "" || back.Query().Get("state") != "st8" || back.Host != "127.0.0.1:9" {
		t.Fatalf("redirect: %s", back)
	}
	if st, out := a.exchange(client, cb, code, ""); st == 200 {
		t.Fatalf("exchanged without a verifier: %v", out)
	}
	// The failed attempt used the code up? It must not have: the verifier
	// check comes after the one-time removal in the library, so a
	// client that lost its verifier starts over. Start over.
	verifier, challenge = pkce()
	code = a.approve(client, cb, challenge, []string{"plan"}, "viewer").Query().Get("code")
	if st, out := a.exchange(client, cb, code, "wrong-"+verifier); st == 200 {
		t.Fatalf("exchanged with a wrong verifier: %v", out)
	}
	verifier, challenge = pkce()
	code = a.approve(client, cb, challenge, []string{"plan"}, "viewer").Query().Get("code")
	// Two exchanges of one code at once: exactly one wins.
	var wg sync.WaitGroup
	results := make([]int, 2)
	tokens := make([]string, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, out := a.exchange(client, cb, code, verifier)
			results[i] = st
			tokens[i], _ = out["access_token"].(string)
		}()
	}
	wg.Wait()
	if (results[0] == 200) == (results[1] == 200) {
		t.Fatalf("two exchanges of one code: %v", results)
	}
	token := tokens[0] + tokens[1]
	if !strings.HasPrefix(token, "dsh_") {
		t.Fatalf("access token %q is not a connect token", token)
	}
	// It is a viewer on plan and does not see other.
	call := func(method, path string) int {
		resp, _ := dshtest.Send(t, a.plain, method, a.h.URL()+"/dsh-excalidraw/api"+path, `{"scene":{"type":"excalidraw","version":2,"elements":[]},"expected_revision":1}`,
			"Authorization", "Bearer "+token, "Content-Type", "application/json")
		return resp.StatusCode
	}
	if st := call(http.MethodGet, "/scenes/plan"); st != 200 {
		t.Fatalf("read plan: %d", st)
	}
	if st := call(http.MethodPut, "/scenes/plan"); st != http.StatusForbidden {
		t.Fatalf("a viewer token's save: %d", st)
	}
	if st := call(http.MethodGet, "/scenes/other"); st != http.StatusNotFound {
		t.Fatalf("read other: %d", st)
	}
	// Deny.
	_, challenge = pkce()
	v := url.Values{"client_id": {client}, "redirect_uri": {cb}, "response_type": {"code"},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"s"}, "action": {"deny"}}
	resp := a.form(a.browser, "/oauth/authorize", v, "Origin", a.h.URL())
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Query().Get("error") != "access_denied" || loc.Query().Get("state") != "s" {
		t.Fatalf("deny: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	// A consent POST from another site is refused before anything.
	resp = a.form(a.browser, "/oauth/authorize", v, "Origin", "https://evil.example")
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site consent: %d", resp.StatusCode)
	}
}

// ?token= on /mcp works for clients that cannot set headers, and the
// token appears in no log line, even at debug level.
func TestQueryToken(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	a := startAS(t, dsh.WithFx(fx.Decorate(func(*zap.Logger) *zap.Logger { return zap.New(core) })))
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"q","version":"1"}}}`
	resp, b := dshtest.Send(t, a.plain, http.MethodPost, a.h.URL()+"/mcp?token="+url.QueryEscape(a.h.Token()), body,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"serverInfo"`) {
		t.Fatalf("initialize with ?token=: %d %s", resp.StatusCode, b)
	}
	resp, _ = dshtest.Send(t, a.plain, http.MethodGet, a.h.URL()+"/dsh-excalidraw/api/scenes?token="+url.QueryEscape(a.h.Token()), "")
	if resp.StatusCode != 401 {
		t.Fatalf("?token= elsewhere than /mcp: %d", resp.StatusCode)
	}
	// A wrong one is refused, and not logged either.
	resp, _ = dshtest.Send(t, a.plain, http.MethodPost, a.h.URL()+"/mcp?token=dsh_wrongwrongwrong", body,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	if resp.StatusCode != 401 {
		t.Fatalf("a wrong ?token=: %d", resp.StatusCode)
	}
	if logs.FilterField(zap.String("path", "/mcp")).Len() == 0 {
		t.Fatal("the access log of /mcp was not captured")
	}
	for _, e := range logs.All() {
		line := e.Message
		for k, v := range e.ContextMap() {
			line += fmt.Sprintf(" %s=%v", k, v)
		}
		if strings.Contains(line, a.h.Token()) || strings.Contains(line, "dsh_wrongwrongwrong") || strings.Contains(line, "token=") {
			t.Fatalf("a log line carries the token: %s", line)
		}
	}
}
