package kernel_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/plugins/status"
)

// startHostWith is startHost with more lines for the host section
// (indented by two spaces, like the rest of it).
func startHostWith(t *testing.T, dataDir, hostYAML string) testHost {
	t.Helper()
	yaml := fmt.Sprintf("host:\n  listen: 127.0.0.1:0\n  dataDir: %s\n  log: {level: error, format: json}\n  http: {drainTimeout: 2s}\n%splugins:\n  - {id: status, name: status}\n", dataDir, hostYAML)
	h, err := dsh.New(dsh.WithPlugins(status.Plugin), dsh.WithConfigYAML([]byte(yaml)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			if err := h.Stop(context.Background()); err != nil {
				t.Errorf("stop: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return testHost{Host: h, stop: stop}
}

const mcpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`

// TestMCPRefusesForeignOrigins: the MCP transport spec says a server MUST
// validate Origin and answer an invalid one with 403. An initialize with a
// valid bearer token from a page on another origin is refused as
// forbidden_origin; from the host's own origin, or with no Origin (a
// program), it is served; an origin the operator added with
// host.allowedOrigins (a browser-based MCP client on another port) is
// served too.
func TestMCPRefusesForeignOrigins(t *testing.T) {
	const inspector = "http://localhost:6274"
	h := startHostWith(t, t.TempDir(), "  allowedOrigins: ["+inspector+"]\n")
	c := client(t)
	initialize := func(origin string) reply {
		hdr := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Authorization", "Bearer " + h.Token()}
		if origin != "" {
			hdr = append(hdr, "Origin", origin)
		}
		return send(t, c, http.MethodPost, h.URL()+"/mcp", mcpInitialize, hdr...)
	}
	for _, origin := range []string{"http://evil.example", "null", "http://127.0.0.1:1"} {
		if r := initialize(origin); r.status != http.StatusForbidden || r.code != "forbidden_origin" {
			t.Fatalf("Origin %s with a valid token: %d %s, want 403 forbidden_origin", origin, r.status, r.body)
		}
	}
	for _, origin := range []string{h.URL(), "", inspector} {
		if r := initialize(origin); r.status != http.StatusOK || r.header.Get("Mcp-Session-Id") == "" {
			t.Fatalf("Origin %q with a valid token: %d %s, want 200 and a session", origin, r.status, r.body)
		}
	}
	// The rule is admission's, so it holds on every route, not only /mcp.
	r := send(t, c, http.MethodGet, h.URL()+"/api/status", "", "Authorization", "Bearer "+h.Token(), "Origin", "http://evil.example")
	if r.status != http.StatusForbidden || r.code != "forbidden_origin" {
		t.Fatalf("/api/status from a foreign origin: %d %s", r.status, r.body)
	}
}

// bearerClient is an SDK client's HTTP client that sends token.
func bearerClient(t *testing.T, token string) *http.Client {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: bearerTransport{base: tr, token: token}}
}

type bearerTransport struct {
	base  http.RoundTripper
	token string
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// TestMCPSessionsCappedPerToken: host.mcp caps the MCP sessions of each
// bearer token, through the real host and its admission: the token over
// its cap loses its own session idle longest (whose next call fails with
// session not found), the other token's sessions are untouched; the total
// cap makes room across tokens; a session is served only to the token that
// opened it. (goleak in TestMain checks every session's goroutines end.)
func TestMCPSessionsCappedPerToken(t *testing.T) {
	const tokA, tokB = "dsh_per-token-cap-a", "dsh_per-token-cap-b"
	hash := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	h := startHostWith(t, t.TempDir(), fmt.Sprintf(
		"  tokens:\n    - {id: tok_a, name: a, sha256: %s}\n    - {id: tok_b, name: b, sha256: %s}\n  mcp: {maxSessions: 4, maxSessionsPerToken: 2}\n",
		hash(tokA), hash(tokB)))
	connect := func(token string) *mcp.ClientSession {
		t.Helper()
		c := mcp.NewClient(&mcp.Implementation{Name: "cap-test", Version: "1"}, nil)
		cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: h.URL() + "/mcp", HTTPClient: bearerClient(t, token)}, nil)
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	call := func(cs *mcp.ClientSession) error {
		_, err := cs.ListTools(t.Context(), nil)
		return err
	}
	alive := func(what string, cs *mcp.ClientSession) {
		t.Helper()
		if err := call(cs); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	closed := func(what string, cs *mcp.ClientSession) {
		t.Helper()
		if err := call(cs); !errors.Is(err, mcp.ErrSessionMissing) {
			t.Fatalf("%s: want a session-not-found error, got %v", what, err)
		}
	}

	b1 := connect(tokB)
	a1 := connect(tokA)
	a2 := connect(tokA)
	a3 := connect(tokA)
	closed("a's first, after a's third (maxSessionsPerToken 2)", a1)
	alive("a's second", a2)
	alive("a's third", a3)
	alive("b's, idle longer but under b's own cap", b1)

	// Four sessions are open (b1, a2, a3, and now b2): the total cap is
	// reached, not exceeded. A fifth makes room with the one idle longest.
	b2 := connect(tokB)
	alive("b's second", b2)
	alive("a's third", a3)
	alive("b's first", b1)
	alive("b's second", b2)
	a4 := connect(tokA) // a is at its cap too: its own idle longest goes
	closed("a's second, idle longest of a's", a2)
	alive("a's fourth", a4)

	// a's session id is no good to b.
	r := send(t, client(t), http.MethodPost, h.URL()+"/mcp", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Authorization", "Bearer "+tokB, "Mcp-Session-Id", a4.ID())
	if r.status != http.StatusForbidden || r.code != "forbidden_session" {
		t.Fatalf("b using a's session: %d %s", r.status, r.body)
	}
	alive("a's fourth, after b tried it", a4)
}
