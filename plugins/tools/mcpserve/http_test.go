package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh/plugins/tools"
)

func TestMCPOverHTTP(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	mustRegister(t, reg, echoTool("echo"))
	m := New(reg, Options{Name: "test-server", Version: "1"})
	srv := httptest.NewServer(m.HTTPHandler())

	client, changed := listChangedClient()
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client()}, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	exerciseSession(t, reg, cs, changed)

	if err := cs.Close(); err != nil {
		t.Errorf("client Close: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("Server Close: %v", err)
	}
	srv.Close()
}

func TestMCPHTTPEmptyRegistryStillAdvertisesTools(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	m := New(reg, Options{Name: "test-server"})
	srv := httptest.NewServer(m.HTTPHandler())
	defer srv.Close()
	defer m.Close()

	client, changed := listChangedClient()
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client()}, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer cs.Close()
	caps := cs.InitializeResult().Capabilities
	if caps == nil || caps.Tools == nil || !caps.Tools.ListChanged {
		t.Fatalf("capabilities = %+v", caps)
	}
	if names := toolNames(t, cs); len(names) != 0 {
		t.Fatalf("tools = %v", names)
	}
	mustRegister(t, reg, echoTool("first"))
	awaitTools(t, cs, changed, "first")
}

func TestMCPHTTPAfterCloseIsUnavailable(t *testing.T) {
	defer goleak.VerifyNone(t)

	m := New(tools.NewRegistry(nil), Options{})
	srv := httptest.NewServer(m.HTTPHandler())
	defer srv.Close()
	m.Close()
	m.Close() // idempotent

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, strings.NewReader(`{}`))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status = %d", resp.StatusCode)
	}
}

// TestMCPCloseCancelsInFlightCall checks that Close does not wait for a tool
// call forever: the handler's context is cancelled.
func TestMCPCloseCancelsInFlightCall(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	started := make(chan struct{})
	mustRegister(t, reg, tools.Tool{
		Name:        "block",
		Description: "Blocks until cancelled.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			return nil, tools.Errorf("cancelled", "%v", ctx.Err())
		},
	})
	m := New(reg, Options{Name: "test-server"})
	srv := httptest.NewServer(m.HTTPHandler())
	defer srv.Close()

	client, _ := listChangedClient()
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client()}, nil)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer cs.Close()

	callDone := make(chan struct{})
	go func() {
		defer close(callDone)
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "block"})
	}()
	<-started
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	<-callDone
}

// TestMCPStreamResumes drops the SSE stream of a tool call before the result
// is sent, lets the call finish, and reconnects with Last-Event-ID: the
// result arrives on the resumed stream, so an agent whose connection blips
// mid-write still learns that its write committed.
func TestMCPStreamResumes(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	release := make(chan struct{})
	mustRegister(t, reg, tools.Tool{
		Name:        "slow_write",
		Description: "Finishes when the test says so.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			select {
			case <-release:
				return map[string]any{"revision": 7}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	})
	m := New(reg, Options{Name: "test-server"})
	srv := httptest.NewServer(m.HTTPHandler())
	defer srv.Close()
	defer m.Close()
	// Without resumption the server sends no priming event and the read
	// below would wait forever; a deadline turns that into a failure.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()

	const version = "2025-11-25" // the protocol with priming events
	post := func(session, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", version)
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	init := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	session := init.Header.Get("Mcp-Session-Id")
	_, _ = io.Copy(io.Discard, init.Body)
	init.Body.Close()
	if session == "" {
		t.Fatal("no session id")
	}
	post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()

	call := post(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow_write","arguments":{}}}`)
	events := bufio.NewReader(call.Body)
	primingID := ""
	for primingID == "" {
		line, err := events.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before a priming event: %v", err)
		}
		if id, ok := strings.CutPrefix(strings.TrimSpace(line), "id:"); ok {
			primingID = strings.TrimSpace(id)
		}
	}
	call.Body.Close() // the connection drops before the result
	close(release)

	// Until the server notices the dropped connection, the stream still
	// has its old writer and a resume answers 409; a client retries, as
	// the SDK's own client does.
	var resumed *http.Response
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", version)
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Last-Event-ID", primingID)
		var err error
		resumed, err = srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resumed.StatusCode != http.StatusConflict {
			break
		}
		resumed.Body.Close()
		select {
		case <-ctx.Done():
			t.Fatal("resume kept answering 409")
		case <-time.After(10 * time.Millisecond):
		}
	}
	defer resumed.Body.Close()
	if resumed.StatusCode != http.StatusOK {
		t.Fatalf("resume: status %d", resumed.StatusCode)
	}
	rd := bufio.NewReader(resumed.Body)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("resumed stream ended without the result: %v", err)
		}
		if data, ok := strings.CutPrefix(line, "data:"); ok && strings.Contains(data, `"id":2`) {
			if !strings.Contains(data, `\"revision\":7`) {
				t.Fatalf("resumed result: %s", data)
			}
			return
		}
	}
}
