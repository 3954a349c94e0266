// Package hosttest starts a dsh host inside a test, the way fxtest runs
// an fx app: New builds and starts a *dsh.Host and stops it when the test
// ends, and the helpers around it reach that host as its users do, over
// real HTTP and MCP.
//
//	h := hosttest.New(t, dsh.WithPlugins(myPlugin),
//		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: mine, name: mine}\n"))))
//	if err := hosttest.Scope(t, h, "mine").AwaitActive(hosttest.Context(t)); err != nil {
//		t.Fatal(err)
//	}
//	sess, _, _ := hosttest.MCP(t, h)
//
// It is for tests of the host and of the plugins on it. (The kit for
// tests that run `dsh serve` as a process is internal/testkit/dshtest.)
//
// Everything it opens (the host, HTTP transports, MCP sessions) is closed
// by the test's cleanup, so a package that checks for leaked goroutines
// (goleak.VerifyTestMain) finds none of its making.
package hosttest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// New builds a host with opts and starts it; it is stopped when the test
// ends, and a failed stop fails the test.
func New(t testing.TB, opts ...dsh.Option) *dsh.Host {
	t.Helper()
	h, err := dsh.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(Context(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Stop(context.Background()); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return h
}

// Context is a context for a test's calls: it ends with the test, or
// after a minute.
func Context(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// YAML is a host config listening on a free loopback port, with a data
// directory of its own and quiet logs; plugins is the YAML of its
// entries, list items under "plugins:" ("  - {id: a, name: a}\n").
func YAML(t testing.TB, plugins string) string {
	t.Helper()
	return ConfigYAML(t.TempDir(), "", plugins)
}

// ConfigYAML is the config YAML writes, on dataDir (one that two hosts
// use in turn, say, to see what survives a restart) and with host's
// lines added to its host section, indented by two spaces like the rest
// of it ("  allowedOrigins: [http://localhost:6274]\n").
func ConfigYAML(dataDir, host, plugins string) string {
	return fmt.Sprintf("host:\n  listen: 127.0.0.1:0\n  dataDir: %s\n  log: {level: error, format: json}\n  http: {drainTimeout: 2s}\n%splugins:\n%s", dataDir, host, plugins)
}

// Scope is the scope of the loaded entry id; the test fails when the
// entry has none.
func Scope(t testing.TB, h *dsh.Host, id string) *app.Scope {
	t.Helper()
	s, ok := h.PluginScope(id)
	if !ok {
		t.Fatalf("entry %q has no scope (state %s)", id, entryState(h, id))
	}
	return s
}

// entryState is the state Plugins reports for id, or "missing".
func entryState(h *dsh.Host, id string) string {
	for _, e := range h.Plugins() {
		if e.ID == id {
			return e.State
		}
	}
	return "missing"
}

// Client is an HTTP client that follows no redirects and whose idle
// connections are closed when the test ends.
func Client(t testing.TB) *http.Client {
	t.Helper()
	return &http.Client{Transport: transport(t), Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// BearerClient is an HTTP client that sends every request with token as
// its bearer (the HTTPClient of an MCP SDK client's transport, say);
// its idle connections are closed when the test ends.
func BearerClient(t testing.TB, token string) *http.Client {
	t.Helper()
	return &http.Client{Transport: dshtest.Bearer{Token: token, Base: transport(t)}}
}

// transport is a new transport whose idle connections are closed when
// the test ends.
func transport(t testing.TB) *http.Transport {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}

// Do sends a request without a body, with header's fields set, and
// returns the response's status and body.
func Do(t testing.TB, c *http.Client, method, url string, header map[string]string) (int, string) {
	t.Helper()
	var hdr []string
	for k, v := range header {
		hdr = append(hdr, k, v)
	}
	r := Send(t, c, method, url, "", hdr...)
	return r.Status, r.Body
}

// Reply is a response as Send read it.
type Reply struct {
	Status int
	Header http.Header
	Body   string
	Code   string // error.code of a JSON error body, else ""
}

// Send sends body (none if "") with the header fields hdr gives as
// name, value pairs ("Cookie", c, "Origin", o), and reads the reply.
func Send(t testing.TB, c *http.Client, method, url, body string, hdr ...string) Reply {
	t.Helper()
	resp, b := dshtest.Send(t, c, method, url, body, hdr...)
	r := Reply{Status: resp.StatusCode, Header: resp.Header, Body: string(b)}
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil {
		r.Code = e.Error.Code
	}
	return r
}

// Bearer is the Authorization header of h's own token, for Do.
func Bearer(h *dsh.Host) map[string]string {
	return map[string]string{"Authorization": "Bearer " + h.Token()}
}

// MCP connects the MCP SDK's client (named "test-agent") to h's /mcp
// over HTTP with h's token. listChanged receives a value for each
// tools/list_changed notification (up to 16 unread); closeAll ends the
// session and its connections, which the test's end also does.
func MCP(t testing.TB, h *dsh.Host) (sess *mcp.ClientSession, listChanged <-chan struct{}, closeAll func()) {
	t.Helper()
	changed := make(chan struct{}, 16)
	c := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	sess, closeAll = connect(t, h, c, h.Token())
	return sess, changed, closeAll
}

// MCPWithToken connects a client named "test-bot" to h's /mcp with
// token (a connect token, say); the session ends with the test.
func MCPWithToken(t testing.TB, h *dsh.Host, token string) *mcp.ClientSession {
	t.Helper()
	s, _ := connect(t, h, mcp.NewClient(&mcp.Implementation{Name: "test-bot", Version: "1"}, nil), token)
	return s
}

func connect(t testing.TB, h *dsh.Host, c *mcp.Client, token string) (*mcp.ClientSession, func()) {
	t.Helper()
	tr := transport(t)
	sess, err := c.Connect(Context(t), &mcp.StreamableClientTransport{
		Endpoint:   h.URL() + "/mcp",
		HTTPClient: &http.Client{Transport: dshtest.Bearer{Token: token, Base: tr}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	closeAll := func() { _ = sess.Close(); tr.CloseIdleConnections() }
	t.Cleanup(closeAll)
	return sess, closeAll
}

// ToolNames lists the tools the session sees (tools/list).
func ToolNames(t testing.TB, s *mcp.ClientSession) []string {
	t.Helper()
	res, err := s.ListTools(Context(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// WriteFile replaces the file at path with content the way editors save,
// by renaming a new file over it, so a watcher sees one whole change.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// Eventually polls cond every 10 ms until it holds, and fails the test
// naming what it waited for after 20 s: a generous deadline, since tests
// share their machines.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Drain empties ch of the values it holds now (the tools/list_changed
// notifications MCP has received so far), so the next receive waits for
// a new one.
func Drain(ch <-chan struct{}) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}
