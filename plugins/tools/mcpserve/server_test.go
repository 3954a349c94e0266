package mcpserve

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh/plugins/tools"
)

// connectInMemory connects client to m over the SDK's in-memory transport.
func connectInMemory(t *testing.T, m *Server, client *mcp.Client) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := m.SDKServer().Connect(t.Context(), st, nil); err != nil {
		t.Fatalf("server Connect: %v", err)
	}
	cs, err := client.Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("client Connect: %v", err)
	}
	return cs
}

func TestMCPDefaultsAndExistingTools(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	mustRegister(t, reg, echoTool("b"))
	mustRegister(t, reg, echoTool("a"))
	m := New(reg, Options{Instructions: "use the tools"})
	defer m.Close()
	client, _ := listChangedClient()
	cs := connectInMemory(t, m, client)
	defer cs.Close()

	init := cs.InitializeResult()
	if init.ServerInfo.Name != "dsh-tools" || init.ServerInfo.Version != "0.0.0-dev" || init.Instructions != "use the tools" {
		t.Fatalf("initialize = %+v %+v", init, init.ServerInfo)
	}
	if got := toolNames(t, cs); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("tools = %v", got)
	}
}

func TestMCPCloseUnsubscribes(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := &spyRegistry{Registry: tools.NewRegistry(nil)}
	m := newServer(reg, Options{})
	if n := reg.subscriptions.Load(); n != 1 {
		t.Fatalf("%d subscriptions while open", n)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if n := reg.subscriptions.Load(); n != 0 {
		t.Fatalf("%d subscriptions left after Close", n)
	}
	mustRegister(t, reg.Registry, echoTool("after")) // must not touch the closed bridge
	m.syncMu.Lock()
	defer m.syncMu.Unlock()
	if len(m.synced) != 0 {
		t.Fatalf("closed bridge still mirrors: %v", m.synced)
	}
}

func TestMCPToolHandlerWithoutParams(t *testing.T) {
	reg := tools.NewRegistry(nil)
	mustRegister(t, reg, tools.Tool{
		Name: "noargs", Description: "d",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler:     func(context.Context, json.RawMessage) (any, error) { return nil, nil },
	})
	m := New(reg, Options{})
	defer m.Close()
	res, err := m.toolHandler("noargs")(context.Background(), &mcp.CallToolRequest{})
	if err != nil || res.IsError {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
}
