package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

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

// sessionServer is an Server with the echo tool (and block, which waits
// for release) behind ownerFromHeader on a loopback port.
type sessionServer struct {
	m       *Server
	srv     *httptest.Server
	release chan struct{}
	started chan struct{}
	tr      *http.Transport // every client's
}

func newSessionServer(t *testing.T, opts Options) *sessionServer {
	t.Helper()
	reg := tools.NewRegistry(nil)
	mustRegister(t, reg, echoTool("echo"))
	// goleak runs last, after the server and the clients' connections
	// are closed (cleanups run in reverse order).
	t.Cleanup(func() { goleak.VerifyNone(t) })
	s := &sessionServer{release: make(chan struct{}), started: make(chan struct{}, 8), tr: &http.Transport{}}
	mustRegister(t, reg, tools.Tool{
		Name:        "block",
		Description: "Waits until the test releases it.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			s.started <- struct{}{}
			select {
			case <-s.release:
				return map[string]any{}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	})
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

// quiet waits until no request is being served: a handler returns a
// moment after its answer reached the client, and until then its session
// is busy, so which session is idle longest would depend on scheduling.
func (s *sessionServer) quiet(t *testing.T) {
	t.Helper()
	eventually(t, "no request in flight", func() bool {
		s.m.sessions.mu.Lock()
		defer s.m.sessions.mu.Unlock()
		for _, e := range s.m.sessions.live {
			if e.busy > 0 {
				return false
			}
		}
		return s.m.sessions.nPending == 0
	})
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

func wantClosed(t *testing.T, what string, cs *mcp.ClientSession) {
	t.Helper()
	if err := callEcho(t, cs); !errors.Is(err, mcp.ErrSessionMissing) {
		t.Fatalf("%s: want a session-not-found error, got %v", what, err)
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

// TestMCPSessionCapClosesOldestIdle: with maxSessions 3, a fourth session
// closes the one idle longest (its next call fails with session not
// found) and the others keep working; use, not age, decides. Sessions
// opened and abandoned far beyond the cap do not pile up: the server holds
// 3 and keeps only their goroutines, and once those end too the count is
// back at the baseline.
func TestMCPSessionCapClosesOldestIdle(t *testing.T) {
	s := newSessionServer(t, Options{MaxSessions: 3})
	baseline := runtime.NumGoroutine()

	a, b, c := s.mustConnect(t, "o"), s.mustConnect(t, "o"), s.mustConnect(t, "o")
	wantAlive(t, "a", a)
	wantAlive(t, "c", c)
	wantAlive(t, "b", b) // b is now the most recently used
	s.quiet(t)
	d := s.mustConnect(t, "o")
	wantClosed(t, "a, idle longest, after a fourth session", a)
	wantAlive(t, "b", b)
	s.quiet(t)
	e := s.mustConnect(t, "o")
	wantClosed(t, "c, idle longer than b and d", c)
	wantAlive(t, "b", b)
	wantAlive(t, "d", d)
	wantAlive(t, "e", e)
	// A closed session leaves the SDK's list a moment after Close.
	eventually(t, "the server holds 3 sessions", func() bool { return httpSessions(s.m) == 3 })
	for _, cs := range []*mcp.ClientSession{a, b, c, d, e} {
		_ = cs.Close()
	}
	s.tr.CloseIdleConnections()
	eventually(t, "goroutines back to the baseline once the clients left", func() bool { return runtime.NumGoroutine() <= baseline })

	// 100 sessions opened and abandoned, as a hostile or careless client
	// does: without the cap each keeps its goroutines (about one) until the
	// idle timeout; with it, 3 are left (a few goroutines each, at most).
	raw := &http.Client{Transport: s.tr}
	for range 100 {
		if status, _, body := rawInitialize(t, raw, s.srv.URL, "o"); status != http.StatusOK {
			t.Fatalf("raw initialize: %d %s", status, body)
		}
	}
	s.tr.CloseIdleConnections()
	eventually(t, "3 sessions and their goroutines left of 100", func() bool {
		return httpSessions(s.m) == 3 && runtime.NumGoroutine() <= baseline+3*4
	})
	// Closed as the idle timeout would close them, they leave nothing.
	s.m.closeSessions()
	eventually(t, "goroutines back to the baseline", func() bool { return runtime.NumGoroutine() <= baseline })
}

// TestMCPSessionCapRefusesWhenAllBusy: when every session under the cap
// is serving a request, a new initialize is refused with 503
// too_many_sessions (JSON, naming the limit) and closes nothing; once a
// session is idle again, the next one makes room.
func TestMCPSessionCapRefusesWhenAllBusy(t *testing.T) {
	s := newSessionServer(t, Options{MaxSessions: 1})
	a := s.mustConnect(t, "o")
	called := make(chan error, 1)
	go func() {
		_, err := a.CallTool(context.Background(), &mcp.CallToolParams{Name: "block"})
		called <- err
	}()
	<-s.started

	status, _, body := rawInitialize(t, &http.Client{Transport: s.tr}, s.srv.URL, "o")
	var refusal struct {
		Error struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &refusal); err != nil || status != http.StatusServiceUnavailable ||
		refusal.Error.Code != CodeTooManySessions || refusal.Error.Details["limit"] != "maxSessions" || refusal.Error.Details["max"] != 1.0 {
		t.Fatalf("initialize at the cap with the session busy: %d %s", status, body)
	}
	if _, err := s.connect(t, "o"); err == nil {
		t.Fatal("the SDK client connected past the cap")
	}

	close(s.release)
	if err := <-called; err != nil {
		t.Fatalf("the busy session's call: %v", err)
	}
	s.quiet(t)
	b := s.mustConnect(t, "o")
	wantClosed(t, "a, idle again, after b", a)
	wantAlive(t, "b", b)
	_ = a.Close()
	_ = b.Close()
}

// TestMCPSessionCapPerOwner: each owner's sessions are capped on their
// own: an owner over its cap loses its own idle-longest session, not
// another owner's; and a session is served only to the owner that opened
// it.
func TestMCPSessionCapPerOwner(t *testing.T) {
	s := newSessionServer(t, Options{MaxSessions: 10, MaxSessionsPerOwner: 2})
	b1 := s.mustConnect(t, "bob") // idle longest of all
	a1, a2 := s.mustConnect(t, "alice"), s.mustConnect(t, "alice")
	s.quiet(t)
	a3 := s.mustConnect(t, "alice")
	wantClosed(t, "alice's oldest, after her third", a1)
	wantAlive(t, "alice's second", a2)
	wantAlive(t, "alice's third", a3)
	wantAlive(t, "bob's, older but under his own cap", b1)
	s.quiet(t)
	b2 := s.mustConnect(t, "bob")
	wantAlive(t, "bob's first, within his cap", b1)

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
	for _, cs := range []*mcp.ClientSession{a1, a2, a3, b1, b2} {
		_ = cs.Close()
	}
}

// TestMCPFailedInitializeClosesNothing: a request without a session that
// opens none (not an initialize, or a bad one) gives its slot back
// without closing the idle session it would have replaced.
func TestMCPFailedInitializeClosesNothing(t *testing.T) {
	s := newSessionServer(t, Options{MaxSessions: 1})
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
		wantAlive(t, "the idle session after "+body, a)
	}
	eventually(t, "only the first session left", func() bool { return httpSessions(s.m) == 1 })
	_ = a.Close()
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

// initializedSession is a real, initialized SDK server session of m
// (connected in memory), closed at the end of the test.
func initializedSession(t *testing.T, m *Server) *mcp.ServerSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := m.server.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mem", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	return ss
}

// TestSessionTableKeepsAVictimThatTurnedBusy: the session chosen to make
// room is not closed if a request of it started before the new session
// opened (closing it would hold up the new answer and could lose the
// request's result); the table is one over the cap until the next
// admission, which closes what is idle by then.
func TestSessionTableKeepsAVictimThatTurnedBusy(t *testing.T) {
	m := New(tools.NewRegistry(nil), Options{})
	t.Cleanup(func() { m.Close() })
	tab := newSessionTable(1, 10)
	live := func() []*mcp.ServerSession { return m.liveSessions() }

	a, err := tab.admit("o", live)
	if err != nil {
		t.Fatal(err)
	}
	ssA := initializedSession(t, m)
	tab.register(a, "A", ssA)
	if got := tab.finish(a); len(got) != 0 {
		t.Fatalf("first session closed %d", len(got))
	}

	b, refused := tab.admit("o", live) // dooms A, idle
	if refused != nil {
		t.Fatal(refused)
	}
	done, _, _ := tab.use("A", "o", true) // A turns busy
	tab.register(b, "B", initializedSession(t, m))
	if got := tab.finish(b); len(got) != 0 {
		t.Fatalf("a busy victim was handed out to close: %v", got[0].id)
	}
	if len(tab.live) != 2 {
		t.Fatalf("table holds %d, want A and B", len(tab.live))
	}

	done() // both idle now: a third session must close both to get under the cap of 1
	c, refused := tab.admit("o", live)
	if refused != nil {
		t.Fatal(refused)
	}
	if len(c.victims) != 2 {
		t.Fatalf("the admission over a cap by one makes room twice, got %d victims", len(c.victims))
	}
}
