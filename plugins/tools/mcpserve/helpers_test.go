package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh/plugins/tools"
)

// TestMain fails the package if any test leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// echoSchema accepts {"text": string, "n"?: integer} and nothing else. Its
// descriptions and $schema are there to be seen by clients unchanged.
const echoSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "text": {"type": "string", "description": "What to echo."},
    "n": {"type": "integer", "description": "A number to echo too."}
  },
  "required": ["text"],
  "additionalProperties": false
}`

// echoArgs is what echoSchema accepts.
type echoArgs struct {
	Text string `json:"text"`
	N    *int64 `json:"n,omitempty"`
}

// echoTool returns a tool that echoes its arguments back.
func echoTool(name string) tools.Tool {
	return tools.Tool{
		Name:        name,
		Description: "Echo the arguments back.",
		InputSchema: json.RawMessage(echoSchema),
		Annotations: tools.Annotations{Title: "Echo", ReadOnly: true, Idempotent: true},
		Handler: tools.Typed(func(_ context.Context, in echoArgs) (any, error) {
			return map[string]any{"echo": in}, nil
		}),
	}
}

// mustRegister registers tool or fails the test.
func mustRegister(t testing.TB, r *tools.Registry, tool tools.Tool) func() {
	t.Helper()
	unregister, err := r.Register(tool)
	if err != nil {
		t.Fatalf("Register(%s): %v", tool.Name, err)
	}
	return unregister
}

// spyRegistry is a *tools.Registry that counts its live subscriptions and
// lists extra tools besides its own (ones it would never accept).
type spyRegistry struct {
	*tools.Registry
	extra         []tools.Descriptor
	subscriptions atomic.Int64
}

func (s *spyRegistry) List() []tools.Descriptor { return append(s.Registry.List(), s.extra...) }

func (s *spyRegistry) Subscribe(fn func()) func() {
	s.subscriptions.Add(1)
	cancel := s.Registry.Subscribe(fn)
	var once sync.Once
	return func() {
		once.Do(func() {
			s.subscriptions.Add(-1)
			cancel()
		})
	}
}

// notifyGuard bounds how long a test waits for an asynchronous event before
// failing with a useful message instead of hanging until the test binary's
// global timeout. It is a liveness guard, not a performance assertion.
const notifyGuard = 30 * time.Second

// listChangedClient returns an SDK client that reports every
// notifications/tools/list_changed on the returned channel.
func listChangedClient() (*mcp.Client, <-chan struct{}) {
	changed := make(chan struct{}, 64)
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	return c, changed
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// awaitTools waits for at least one list_changed notification and then for
// the listed tools to equal want (a notification may describe an earlier
// change, so it re-checks after each one).
func awaitTools(t *testing.T, cs *mcp.ClientSession, changed <-chan struct{}, want ...string) {
	t.Helper()
	guard := time.NewTimer(notifyGuard)
	defer guard.Stop()
	for {
		select {
		case <-changed:
		case <-guard.C:
			t.Fatalf("no tools/list_changed leading to %v (have %v)", want, toolNames(t, cs))
		}
		if slices.Equal(toolNames(t, cs), want) {
			return
		}
	}
}

// exerciseSession runs the shared MCP conformance checks against a
// connected client session.
func exerciseSession(t *testing.T, reg *tools.Registry, cs *mcp.ClientSession, changed <-chan struct{}) {
	t.Helper()
	ctx := t.Context()

	init := cs.InitializeResult()
	t.Logf("negotiated protocol %s", init.ProtocolVersion)
	if init == nil || init.ServerInfo == nil || init.ServerInfo.Name != "test-server" {
		t.Fatalf("initialize result = %+v", init)
	}
	if init.Capabilities == nil || init.Capabilities.Tools == nil || !init.Capabilities.Tools.ListChanged {
		t.Fatalf("tools capability with listChanged not advertised: %+v", init.Capabilities)
	}

	// tools/list shows schema and annotations.
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "echo" {
		t.Fatalf("tools = %+v", list.Tools)
	}
	tool := list.Tools[0]
	if tool.Description != "Echo the arguments back." {
		t.Fatalf("description = %q", tool.Description)
	}
	var gotSchema, wantSchema any
	schemaJSON, _ := json.Marshal(tool.InputSchema)
	_ = json.Unmarshal(schemaJSON, &gotSchema)
	_ = json.Unmarshal([]byte(echoSchema), &wantSchema)
	gotCanon, _ := tools.CanonicalJSON(gotSchema)
	wantCanon, _ := tools.CanonicalJSON(wantSchema)
	if string(gotCanon) != string(wantCanon) {
		t.Fatalf("schema = %s, want %s", gotCanon, wantCanon)
	}
	a := tool.Annotations
	if a == nil || tool.Title != "Echo" || a.Title != "" || !a.ReadOnlyHint || !a.IdempotentHint ||
		a.DestructiveHint != nil || a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Fatalf("annotations = %+v", a)
	}

	// tools/call success: canonical JSON text, once (no outputSchema, so no
	// structured content).
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "<hi>", "n": 3}})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if res.IsError || len(res.Content) != 1 {
		t.Fatalf("result = %+v", res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; text != `{"echo":{"n":3,"text":"<hi>"},"ok":true}` {
		t.Fatalf("text = %s", text)
	}
	if res.StructuredContent != nil {
		t.Fatalf("structured content sent for a tool without outputSchema: %#v", res.StructuredContent)
	}

	// tools/call failure: IsError and the error JSON.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x", "extra": 1}})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if !res.IsError {
		t.Fatalf("invalid call not flagged: %+v", res)
	}
	var failure struct {
		OK    bool `json:"ok"`
		Error struct {
			Code    string `json:"code"`
			Details struct {
				Errors []tools.ArgumentProblem `json:"errors"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &failure); err != nil {
		t.Fatal(err)
	}
	if failure.OK || failure.Error.Code != tools.CodeInvalidArguments || len(failure.Error.Details.Errors) != 1 {
		t.Fatalf("failure = %+v", failure)
	}

	// Runtime registration and removal reach the connected client.
	unregister := mustRegister(t, reg, tools.Tool{
		Name:        "late",
		Description: "Registered while a client is connected.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			return map[string]string{"hello": "world"}, nil
		},
	})
	awaitTools(t, cs, changed, "echo", "late")
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "late"})
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != `{"hello":"world","ok":true}` {
		t.Fatalf("late call = %+v, %v", res, err)
	}
	unregister()
	awaitTools(t, cs, changed, "echo")
}

// pipeStdio connects a client to m.ServeStdio over two io.Pipes and
// returns the session plus a function that tears everything down and
// returns ServeStdio's error.
func pipeStdio(t *testing.T, m *Server, c *mcp.Client, version string) (*mcp.ClientSession, func() error) {
	t.Helper()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeStdio(context.Background(), c2sR, s2cW) }()

	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := c.Connect(t.Context(), &mcp.IOTransport{Reader: s2cR, Writer: c2sW}, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	return cs, func() error {
		if err := cs.Close(); err != nil && !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("client Close: %v", err)
		}
		err := <-served
		s2cW.Close()
		return err
	}
}
