package mcpserve_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/status"
)

// statusEntry is the plugins list of the hosts these tests start.
const statusEntry = "  - {id: status, name: status}\n"

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
	h := hosttest.New(t, dsh.WithPlugins(status.Plugin), dsh.WithConfigYAML([]byte(hosttest.ConfigYAML(t.TempDir(), "  allowedOrigins: ["+inspector+"]\n", statusEntry))))
	c := hosttest.Client(t)
	initialize := func(origin string) hosttest.Reply {
		hdr := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Authorization", "Bearer " + h.Token()}
		if origin != "" {
			hdr = append(hdr, "Origin", origin)
		}
		return hosttest.Send(t, c, http.MethodPost, h.URL()+"/mcp", mcpInitialize, hdr...)
	}
	for _, origin := range []string{"http://evil.example", "null", "http://127.0.0.1:1"} {
		if r := initialize(origin); r.Status != http.StatusForbidden || r.Code != "forbidden_origin" {
			t.Fatalf("Origin %s with a valid token: %d %s, want 403 forbidden_origin", origin, r.Status, r.Body)
		}
	}
	for _, origin := range []string{h.URL(), "", inspector} {
		if r := initialize(origin); r.Status != http.StatusOK || r.Header.Get("Mcp-Session-Id") == "" {
			t.Fatalf("Origin %q with a valid token: %d %s, want 200 and a session", origin, r.Status, r.Body)
		}
	}
	// The rule is admission's, so it holds on every route, not only /mcp.
	r := hosttest.Send(t, c, http.MethodGet, h.URL()+"/api/status", "", "Authorization", "Bearer "+h.Token(), "Origin", "http://evil.example")
	if r.Status != http.StatusForbidden || r.Code != "forbidden_origin" {
		t.Fatalf("/api/status from a foreign origin: %d %s", r.Status, r.Body)
	}
}

// refusedAtCap checks that err, from the SDK client's Connect, is the
// refusal of a session past the cap named by setting: a JSON-RPC error
// that says too_many_sessions and the setting that raises the cap, with
// the host's error object as its data.
func refusedAtCap(t *testing.T, err error, setting string, max int) {
	t.Helper()
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) {
		t.Fatalf("connect past %s: %v, want a JSON-RPC error", setting, err)
	}
	var data struct {
		Code    string         `json:"code"`
		Details map[string]any `json:"details"`
	}
	if json.Unmarshal(rpc.Data, &data) != nil || data.Code != "too_many_sessions" || data.Details["setting"] != setting ||
		data.Details["max"] != float64(max) || !strings.Contains(err.Error(), "too_many_sessions: ") || !strings.Contains(err.Error(), "raise "+setting) {
		t.Fatalf("connect past %s: %v (data %s)", setting, err, rpc.Data)
	}
}

// TestMCPSessionsCappedPerToken: host.mcp caps the MCP sessions of each
// bearer token and in all, through the real host and its admission: a
// session past either cap is refused at initialize with a clear error
// naming the setting, and every session already open keeps working (none
// is closed to make room); a session that ends frees its place; a
// session is served only to the token that opened it. (goleak in
// TestMain checks every session's goroutines end.)
func TestMCPSessionsCappedPerToken(t *testing.T) {
	const tokA, tokB, tokC = "dsh_per-token-cap-a", "dsh_per-token-cap-b", "dsh_per-token-cap-c"
	hash := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	h := hosttest.New(t, dsh.WithPlugins(status.Plugin), dsh.WithConfigYAML([]byte(hosttest.ConfigYAML(t.TempDir(), fmt.Sprintf(
		"  tokens:\n    - {id: tok_a, name: a, sha256: %s}\n    - {id: tok_b, name: b, sha256: %s}\n    - {id: tok_c, name: c, sha256: %s}\n  mcp: {maxSessions: 4, maxSessionsPerToken: 2}\n",
		hash(tokA), hash(tokB), hash(tokC)), statusEntry))))
	connect := func(token string) (*mcp.ClientSession, error) {
		t.Helper()
		c := mcp.NewClient(&mcp.Implementation{Name: "cap-test", Version: "1"}, nil)
		cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: h.URL() + "/mcp", HTTPClient: hosttest.BearerClient(t, token)}, nil)
		if err == nil {
			t.Cleanup(func() { _ = cs.Close() })
		}
		return cs, err
	}
	mustConnect := func(token string) *mcp.ClientSession {
		t.Helper()
		cs, err := connect(token)
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		return cs
	}
	alive := func(what string, cs *mcp.ClientSession) {
		t.Helper()
		if _, err := cs.ListTools(t.Context(), nil); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	a1, a2 := mustConnect(tokA), mustConnect(tokA)
	_, err := connect(tokA)
	refusedAtCap(t, err, "host.mcp.maxSessionsPerToken", 2)
	alive("a's first, after a's third was refused", a1)
	alive("a's second", a2)
	b1, b2 := mustConnect(tokB), mustConnect(tokB) // four in all: the total cap
	_, err = connect(tokC)
	refusedAtCap(t, err, "host.mcp.maxSessions", 4)
	for _, cs := range []*mcp.ClientSession{a1, a2, b1, b2} {
		alive("a session open before the refusals", cs)
	}
	if err := a1.Close(); err != nil { // its DELETE ends it
		t.Fatal(err)
	}
	c1 := mustConnect(tokC)
	alive("c's, in a's first's place", c1)

	// a's session id is no good to b.
	r := hosttest.Send(t, hosttest.Client(t), http.MethodPost, h.URL()+"/mcp", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Authorization", "Bearer "+tokB, "Mcp-Session-Id", a2.ID())
	if r.Status != http.StatusForbidden || r.Code != "forbidden_session" {
		t.Fatalf("b using a's session: %d %s", r.Status, r.Body)
	}
	alive("a's second, after b tried it", a2)
}

// TestMCPHundredAgentsOnOneToken: with the default host.mcp settings, a
// hundred agents of one person, each an SDK client with its session on
// the same token, all connect at once and call a tool, and keep working;
// the session past the token's cap (256 by default, the rest of it
// filled by raw sessions) is refused at initialize with the clear error
// that names host.mcp.maxSessionsPerToken, and none of the hundred is
// lost to it.
func TestMCPHundredAgentsOnOneToken(t *testing.T) {
	const agents, perToken = 100, 256
	h := hosttest.New(t, dsh.WithPlugins(status.Plugin), dsh.WithConfigYAML([]byte(hosttest.YAML(t, statusEntry))))
	hc := hosttest.BearerClient(t, h.Token())
	sessions := make([]*mcp.ClientSession, agents)
	errs := make([]error, agents)
	var wg sync.WaitGroup
	for i := range agents {
		wg.Go(func() {
			c := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("agent-%d", i), Version: "1"}, nil)
			cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: h.URL() + "/mcp", HTTPClient: hc}, nil)
			if err == nil {
				var res *mcp.CallToolResult
				if res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "dsh_status", Arguments: map[string]any{}}); err == nil && res.IsError {
					err = fmt.Errorf("dsh_status failed: %+v", res.Content)
				}
			}
			sessions[i], errs[i] = cs, err
		})
	}
	wg.Wait()
	for _, cs := range sessions {
		if cs != nil {
			t.Cleanup(func() { _ = cs.Close() })
		}
	}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("agent %d of %d: %v", i, agents, err)
		}
	}

	// The rest of the token's cap, as agents that initialize and go quiet.
	c := hosttest.Client(t)
	for i := agents; i < perToken; i++ {
		r := hosttest.Send(t, c, http.MethodPost, h.URL()+"/mcp", mcpInitialize,
			"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Authorization", "Bearer "+h.Token())
		if r.Status != http.StatusOK {
			t.Fatalf("session %d: %d %s", i+1, r.Status, r.Body)
		}
	}
	_, err := mcp.NewClient(&mcp.Implementation{Name: "one-too-many", Version: "1"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: h.URL() + "/mcp", HTTPClient: hc}, nil)
	refusedAtCap(t, err, "host.mcp.maxSessionsPerToken", perToken)
	for i, cs := range sessions {
		if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "dsh_status", Arguments: map[string]any{}}); err != nil {
			t.Fatalf("agent %d after the refusal: %v", i, err)
		}
	}
}
