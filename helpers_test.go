package dsh_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// hostYAML is a config on a free loopback port with a private data dir.
func hostYAML(t *testing.T, plugins string) string {
	t.Helper()
	return fmt.Sprintf("host:\n  listen: 127.0.0.1:0\n  dataDir: %s\n  log: {level: error, format: json}\n  http: {drainTimeout: 2s}\nplugins:\n%s", t.TempDir(), plugins)
}

// startHost starts a host and stops it at the end of the test.
func startHost(t *testing.T, opts ...dsh.Option) *dsh.Host {
	t.Helper()
	h, err := dsh.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Stop(context.Background()); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return h
}

// client is an HTTP client whose idle connections are closed at the end,
// so goleak sees no keep-alive goroutines.
func client(t *testing.T) *http.Client {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// do sends a request and returns status and body.
func do(t *testing.T, c *http.Client, method, url string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func bearer(h *dsh.Host) map[string]string {
	return map[string]string{"Authorization": "Bearer " + h.Token()}
}

// mcpSession connects the official SDK client to the host's /mcp over
// real HTTP. listChanged receives one value per tools/list_changed.
//
// The returned close function ends the session and its connections.
func mcpSession(t *testing.T, h *dsh.Host) (*mcp.ClientSession, <-chan struct{}, func()) {
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
	sess, closeAll := connectMCP(t, h, c, h.Token())
	return sess, changed, closeAll
}

// mcpSessionWith connects the SDK client to the host's /mcp with token
// (a connect token, say); the session ends with the test.
func mcpSessionWith(t *testing.T, h *dsh.Host, token string) *mcp.ClientSession {
	t.Helper()
	s, _ := connectMCP(t, h, mcp.NewClient(&mcp.Implementation{Name: "test-bot", Version: "1"}, nil), token)
	return s
}

func connectMCP(t *testing.T, h *dsh.Host, c *mcp.Client, token string) (*mcp.ClientSession, func()) {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	sess, err := c.Connect(testCtx(t), &mcp.StreamableClientTransport{
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

func toolNames(t *testing.T, s *mcp.ClientSession) []string {
	t.Helper()
	res, err := s.ListTools(testCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil { // editors save by rename
		t.Fatal(err)
	}
}

// eventually polls cond until it holds; it fails the test after a
// generous deadline (these machines are shared, so no tight timing).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func entryState(h *dsh.Host, id string) string {
	for _, e := range h.Plugins() {
		if e.ID == id {
			return e.State
		}
	}
	return "missing"
}

func scopeOf(t *testing.T, h *dsh.Host, id string) *app.Scope {
	t.Helper()
	s, ok := h.PluginScope(id)
	if !ok {
		t.Fatalf("entry %q has no scope (state %s)", id, entryState(h, id))
	}
	return s
}

// tempDir is a fresh directory for examples, which have no *testing.T.
func tempDir() string {
	d, err := os.MkdirTemp("", "dsh-example-")
	if err != nil {
		panic(err)
	}
	return d
}
