package mcpserve

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh/plugins/tools"
)

// eventually polls cond until it holds or notifyGuard passes. It is a
// liveness guard (goroutines end asynchronously), not a timing assertion.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(notifyGuard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ownerFromHeader stands in for the host's admission: the request's
// owner is its X-Owner header.
func ownerFromHeader(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(WithSessionOwner(r.Context(), r.Header.Get("X-Owner"))))
	})
}

// headerTransport adds headers to every request of an SDK client.
type headerTransport struct {
	base http.RoundTripper
	hdr  map[string]string
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.hdr {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}

// sessionServer is a Server with the echo tool behind ownerFromHeader on
// a loopback port.
type sessionServer struct {
	m   *Server
	srv *httptest.Server
	tr  *http.Transport // every client's
}

func newSessionServer(t *testing.T, opts Options) *sessionServer {
	t.Helper()
	reg := tools.NewRegistry(nil)
	mustRegister(t, reg, echoTool("echo"))
	// goleak runs last, after the server and the clients' connections
	// are closed (cleanups run in reverse order).
	t.Cleanup(func() { goleak.VerifyNone(t) })
	s := &sessionServer{tr: &http.Transport{}}
	opts.Name = "test-server"
	s.m = New(reg, opts)
	s.srv = httptest.NewServer(ownerFromHeader(s.m.HTTPHandler()))
	t.Cleanup(func() {
		s.m.Close()
		s.tr.CloseIdleConnections()
		s.srv.Close()
	})
	return s
}

// connect opens a session with the SDK client as owner.
func (s *sessionServer) connect(t *testing.T, owner string) (*mcp.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: headerTransport{base: s.tr, hdr: map[string]string{"X-Owner": owner}}}
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	return c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: s.srv.URL, HTTPClient: hc}, nil)
}

func (s *sessionServer) mustConnect(t *testing.T, owner string) *mcp.ClientSession {
	t.Helper()
	cs, err := s.connect(t, owner)
	if err != nil {
		t.Fatalf("connect as %q: %v", owner, err)
	}
	return cs
}

// callEcho calls the echo tool on cs.
func callEcho(t *testing.T, cs *mcp.ClientSession) error {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	if err == nil && res.IsError {
		t.Fatalf("echo failed: %+v", res)
	}
	return err
}

func wantAlive(t *testing.T, what string, cs *mcp.ClientSession) {
	t.Helper()
	if err := callEcho(t, cs); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// rawInitialize opens a session with plain HTTP the way an abandoning
// client does (initialize, initialized, then nothing), so the client side
// keeps no goroutine; it returns the response's status and session id.
func rawInitialize(t *testing.T, c *http.Client, url, owner string) (int, string, string) {
	t.Helper()
	post := func(session, body string) *http.Response {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("X-Owner", owner)
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode == http.StatusOK {
		r := post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return resp.StatusCode, id, string(body)
}

func httpSessions(m *Server) int {
	n := 0
	for range m.server.Sessions() {
		n++
	}
	return n
}

// refusal is what a client learns of an initialize refused at a cap.
type refusal struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

// wantRefused checks that err, from the SDK client's Connect, is the
// JSON-RPC error of a refusal at the cap named limit (max sessions),
// readable as it is (the code, the setting that raises the cap) and with
// the host's error object as its data.
func wantRefused(t *testing.T, err error, limit string, max int) {
	t.Helper()
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) {
		t.Fatalf("connect past the %s cap: %v, want a JSON-RPC error", limit, err)
	}
	var r refusal
	if err := json.Unmarshal(rpc.Data, &r); err != nil {
		t.Fatalf("refusal data %s: %v", rpc.Data, err)
	}
	setting := "host.mcp." + limit
	if rpc.Code != rpcCodeRefused || !strings.Contains(err.Error(), `"initialize": too_many_sessions: `) ||
		!strings.Contains(rpc.Message, "raise "+setting) || r.Code != CodeTooManySessions ||
		r.Details["limit"] != limit || r.Details["setting"] != setting || r.Details["max"] != float64(max) {
		t.Fatalf("connect past the %s cap: %v (data %s)", limit, err, rpc.Data)
	}
}

// TestMCPSessionCapRefusesAtInitialize: at maxSessions a new session is
// refused at initialize, with a clear error the SDK client reports as it
// is (too_many_sessions, the cap, the setting to raise); every session
// already open keeps working, however long it has been idle: none is
// closed to make room. A session that ends frees its place. A body that
// is not a JSON-RPC request is refused in the host's error shape.
func TestMCPSessionCapRefusesAtInitialize(t *testing.T) {
	s := newSessionServer(t, Options{MaxSessions: 3})
	a, b, c := s.mustConnect(t, "o"), s.mustConnect(t, "p"), s.mustConnect(t, "q")
	wantAlive(t, "b", b)
	_, err := s.connect(t, "r")
	wantRefused(t, err, "maxSessions", 3)
	for _, cs := range []*mcp.ClientSession{a, b, c} {
		wantAlive(t, "a session open before the refusal", cs)
	}

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, s.srv.URL, strings.NewReader(`{"jsonrpc":"2.0","method":"initialize"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Owner", "r")
	resp, err := (&http.Client{Transport: s.tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ Error refusal }
	err = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusConflict || body.Error.Code != CodeTooManySessions ||
		body.Error.Details["setting"] != SettingMaxSessions || body.Error.Details["idleTimeoutSec"] != 1800.0 {
		t.Fatalf("a refused body without an id: %d %+v %v", resp.StatusCode, body, err)
	}

	if err := a.Close(); err != nil { // DELETE: the session ends
		t.Fatal(err)
	}
	d := s.mustConnect(t, "r")
	wantAlive(t, "d, in a's place", d)
	wantAlive(t, "c", c)
	for _, cs := range []*mcp.ClientSession{b, c, d} {
		_ = cs.Close()
	}
}

// TestMCPSessionCapPerOwner: each owner's sessions are capped on their
// own, at initialize: an owner at its cap is refused, naming
// maxSessionsPerToken, and keeps the sessions it has; another owner
// still connects; and a session is served only to the owner that opened
// it.
func TestMCPSessionCapPerOwner(t *testing.T) {
	s := newSessionServer(t, Options{MaxSessions: 10, MaxSessionsPerOwner: 2})
	b1 := s.mustConnect(t, "bob")
	a1, a2 := s.mustConnect(t, "alice"), s.mustConnect(t, "alice")
	_, err := s.connect(t, "alice")
	wantRefused(t, err, "maxSessionsPerToken", 2)
	wantAlive(t, "alice's first", a1)
	wantAlive(t, "alice's second", a2)
	b2 := s.mustConnect(t, "bob")
	wantAlive(t, "bob's first", b1)

	// Alice's session id is no good to Bob.
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, s.srv.URL,
		strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", a2.ID())
	req.Header.Set("X-Owner", "bob")
	resp, err := (&http.Client{Transport: s.tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), CodeForbiddenSession) {
		t.Fatalf("bob using alice's session: %d %s", resp.StatusCode, body)
	}
	wantAlive(t, "alice's session, after bob tried it", a2)
	for _, cs := range []*mcp.ClientSession{a1, a2, b1, b2} {
		_ = cs.Close()
	}
}

// TestMCPSessionCapUnderLoad: 120 SDK clients of one owner connect at
// once against a cap of 100: exactly 100 connect, and every one of them
// calls a tool; the other 20 are refused at initialize with
// too_many_sessions, none with a later "session not found".
func TestMCPSessionCapUnderLoad(t *testing.T) {
	const capacity, clients = 100, 120
	s := newSessionServer(t, Options{MaxSessionsPerOwner: capacity})
	sessions := make([]*mcp.ClientSession, clients)
	errs := make([]error, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() { sessions[i], errs[i] = s.connect(t, "one-token") })
	}
	wg.Wait()
	var open []*mcp.ClientSession
	for i, err := range errs {
		if err != nil {
			wantRefused(t, err, "maxSessionsPerToken", capacity)
			continue
		}
		open = append(open, sessions[i])
	}
	if len(open) != capacity {
		t.Fatalf("%d sessions opened of %d, want the cap, %d", len(open), clients, capacity)
	}
	calls := make([]error, len(open))
	for i, cs := range open {
		wg.Go(func() { calls[i] = callEcho(t, cs) })
	}
	wg.Wait()
	for i, err := range calls {
		if err != nil {
			t.Fatalf("session %d of %d: %v", i, capacity, err)
		}
	}
	for _, cs := range open {
		_ = cs.Close()
	}
}

// TestMCPAbandonedSessionsAreBounded: sessions opened and abandoned far
// beyond the cap, as a hostile or careless client does, do not pile up:
// the server holds the cap's worth (and their goroutines) and refuses the
// rest; once they end (as the idle timeout ends them), their places and
// goroutines are free again.
func TestMCPAbandonedSessionsAreBounded(t *testing.T) {
	s := newSessionServer(t, Options{MaxSessions: 3})
	baseline := runtime.NumGoroutine()
	raw := &http.Client{Transport: s.tr}
	opened := 0
	for range 100 {
		switch status, _, body := rawInitialize(t, raw, s.srv.URL, "o"); status {
		case http.StatusOK:
			opened++
		case http.StatusConflict:
			if !strings.Contains(body, CodeTooManySessions) {
				t.Fatalf("refused initialize: %s", body)
			}
		default:
			t.Fatalf("raw initialize: %d %s", status, body)
		}
	}
	if opened != 3 {
		t.Fatalf("%d abandoned sessions opened, want 3", opened)
	}
	s.tr.CloseIdleConnections()
	eventually(t, "3 sessions and their goroutines left of 100", func() bool {
		return httpSessions(s.m) == 3 && runtime.NumGoroutine() <= baseline+3*4
	})
	// Closed as the idle timeout would close them, they leave nothing.
	s.m.closeSessions()
	eventually(t, "goroutines back to the baseline", func() bool { return runtime.NumGoroutine() <= baseline })
	cs := s.mustConnect(t, "o")
	wantAlive(t, "a session once the abandoned ones ended", cs)
	_ = cs.Close()
}

// TestMCPFailedInitializeTakesNoPlace: a request without a session that
// opens none (not an initialize, or a bad one) gives its slot back.
func TestMCPFailedInitializeTakesNoPlace(t *testing.T) {
	s := newSessionServer(t, Options{MaxSessions: 2})
	a := s.mustConnect(t, "o")
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":"nonsense"}`,
		`not json`,
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, s.srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("X-Owner", "o")
		resp, err := (&http.Client{Transport: s.tr}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		wantAlive(t, "the open session after "+body, a)
	}
	eventually(t, "only the first session left", func() bool { return httpSessions(s.m) == 1 })
	b := s.mustConnect(t, "o")
	_, err := s.connect(t, "o")
	wantRefused(t, err, "maxSessions", 2)
	_ = a.Close()
	_ = b.Close()
}

// TestMCPSessionIdleTimeout: Options.SessionTimeout (host.mcp's
// sessionIdleTimeout) closes a session that receives no request, and the
// slot it held is free again.
func TestMCPSessionIdleTimeout(t *testing.T) {
	s := newSessionServer(t, Options{MaxSessions: 1, SessionTimeout: 100 * time.Millisecond})
	raw := &http.Client{Transport: s.tr}
	if status, _, body := rawInitialize(t, raw, s.srv.URL, "o"); status != http.StatusOK {
		t.Fatalf("initialize: %d %s", status, body)
	}
	eventually(t, "the idle session closed by the timeout", func() bool { return httpSessions(s.m) == 0 })
	b := s.mustConnect(t, "o")
	wantAlive(t, "a session after the idle one timed out", b)
	_ = b.Close()
}
