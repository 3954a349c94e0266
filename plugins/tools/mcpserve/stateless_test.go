package mcpserve

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/tools"
)

// whoTool answers with the node that ran it and whom the call acts for.
func whoTool(node string) tools.Tool {
	return tools.Tool{
		Name:        "who",
		Description: "Say which node answers and for whom.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Annotations: tools.Annotations{Title: "Who", ReadOnly: true},
		Handler: tools.Typed(func(ctx context.Context, _ struct{}) (any, error) {
			p, _ := identity.From(ctx)
			return map[string]any{"node": node, "who": p.Name}, nil
		}),
	}
}

// Two stateless servers (two nodes) behind a plain round-robin proxy: one
// SDK client session, whose requests alternate between them, initializes,
// lists and calls on both, each call acting for its own request's
// principal; no request is refused for a session the node never saw.
func TestMCPStatelessBehindRoundRobin(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after every other cleanup
	var backends []*url.URL
	for _, node := range []string{"a", "b"} {
		reg := tools.NewRegistry(nil)
		mustRegister(t, reg, whoTool(node))
		m := New(reg, Options{Name: "node-" + node, Version: "1", Stateless: true})
		h := m.HTTPHandler()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p := identity.Principal{Kind: "token", ID: "t1", Name: r.Header.Get("X-Test-User")}
			h.ServeHTTP(w, r.WithContext(identity.With(r.Context(), p)))
		}))
		t.Cleanup(func() { srv.Close(); _ = m.Close() })
		u, _ := url.Parse(srv.URL)
		backends = append(backends, u)
	}
	var turn atomic.Int64
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(backends[turn.Add(1)%int64(len(backends))])
	}})
	t.Cleanup(proxy.Close)

	client := mcp.NewClient(&mcp.Implementation{Name: "rr-client", Version: "1"}, nil)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	hc := &http.Client{Transport: headerRT{tr, "X-Test-User", "ada"}}
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: proxy.URL, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer cs.Close()
	seen := map[string]bool{}
	for i := range 6 {
		if i%2 == 0 { // three requests per two rounds: calls land on both
			lt, err := cs.ListTools(t.Context(), nil)
			if err != nil || len(lt.Tools) != 1 {
				t.Fatalf("ListTools: %v %v", lt, err)
			}
		}
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "who", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("CallTool: %v %+v", err, res)
		}
		var out struct{ Node, Who string }
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
			t.Fatal(err)
		}
		if out.Who != "ada" {
			t.Fatalf("the call acted for %q, want the request's principal ada", out.Who)
		}
		seen[out.Node] = true
	}
	if !seen["a"] || !seen["b"] {
		t.Fatalf("calls reached %v: the proxy should have spread them over both nodes", seen)
	}
}

// headerRT adds one header to every request.
type headerRT struct {
	next        http.RoundTripper
	name, value string
}

func (h headerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return h.next.RoundTrip(r)
}
