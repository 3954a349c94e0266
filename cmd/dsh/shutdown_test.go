package main

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// TestServeStopsCleanlyWithOpenStreams is the operator's Ctrl+C with an
// editor tab and an agent connected: `dsh serve` gets SIGINT while an
// editor's live-update stream and an MCP session (with its standalone SSE
// stream) are open. It must exit 0 without waiting for the shutdown
// timeout and without a failed stop hook, whatever headers the streams'
// clients sent. Before streams were ended at the
// start of shutdown, it waited the whole timeout and exited 1 with
// "OnStop hook failed".
func TestServeStopsCleanlyWithOpenStreams(t *testing.T) {
	bin := dshtest.Build(t)
	p := dshtest.Start(t, bin, `host:
  listen: 127.0.0.1:0
  dataDir: ./data
  log: {level: info, format: json}
  http: {shutdownTimeout: 30s}
plugins:
  - {id: status, name: status}
  - {id: excalidraw, name: excalidraw}
`)
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	do := func(method, path, body, accept string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, p.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+p.Token)
		req.Header.Set("Content-Type", "application/json")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := do(http.MethodPost, "/dsh-excalidraw/api/scenes", `{"name":"board"}`, "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", resp.StatusCode)
	}

	// The editor's stream, as the page opens it.
	events := do(http.MethodGet, "/dsh-excalidraw/api/scenes/board/events", "", "text/event-stream")
	defer events.Body.Close()
	if line, err := bufio.NewReader(events.Body).ReadString('\n'); err != nil || line != "event: revision\n" {
		t.Fatalf("events stream: %q %v", line, err)
	}
	// The same stream as `curl -N` opens it: no Accept header. Before
	// streams were ended by route, this one held shutdown for the whole
	// timeout and dsh exited 1.
	curl := do(http.MethodGet, "/dsh-excalidraw/api/events", "", "")
	defer curl.Body.Close()
	if ct := curl.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("the list's stream without Accept answered %d %q", curl.StatusCode, ct)
	}

	// An agent's MCP session over Streamable HTTP.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "shutdown-test", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: p.URL + "/mcp", HTTPClient: &http.Client{Transport: dshtest.Bearer{Token: p.Token, Base: tr}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	if _, err := session.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}

	exit := p.Stop(syscall.SIGINT)
	t.Logf("dsh serve exited %d, %v after SIGINT", exit.Code, exit.Elapsed)
	if testing.Verbose() {
		t.Log(exit.Stderr)
	}
	if exit.Code != 0 {
		t.Fatalf("dsh serve exited %d, want 0\n%s", exit.Code, dshtest.Tail(exit.Stderr, 30))
	}
	for _, bad := range []string{"OnStop hook failed", "graceful shutdown timed out", "still running"} {
		if strings.Contains(exit.Stderr, bad) {
			t.Fatalf("shutdown logged %q:\n%s", bad, dshtest.Tail(exit.Stderr, 30))
		}
	}
	if !strings.Contains(exit.Stdout, "dsh is stopping") {
		t.Fatalf("stdout lacks the stopping line:\n%s", exit.Stdout)
	}
}
