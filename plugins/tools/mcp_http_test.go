package tools

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

func TestMCPOverHTTP(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := NewRegistry(nil)
	mustRegister(t, reg, echoTool("echo"))
	m := NewMCPServer(reg, MCPOptions{Name: "test-server", Version: "1"})
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
		t.Errorf("MCPServer Close: %v", err)
	}
	srv.Close()
}

func TestMCPHTTPEmptyRegistryStillAdvertisesTools(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := NewRegistry(nil)
	m := NewMCPServer(reg, MCPOptions{Name: "test-server"})
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

	m := NewMCPServer(NewRegistry(nil), MCPOptions{})
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

	reg := NewRegistry(nil)
	started := make(chan struct{})
	mustRegister(t, reg, Tool{
		Name:        "block",
		Description: "Blocks until cancelled.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			return nil, Errorf("cancelled", "%v", ctx.Err())
		},
	})
	m := NewMCPServer(reg, MCPOptions{Name: "test-server"})
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
