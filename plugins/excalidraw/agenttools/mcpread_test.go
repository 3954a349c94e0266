package agenttools

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/tools/mcpserve"
)

// countingWriter counts the bytes written through it and, while record
// is set, keeps them.
type countingWriter struct {
	w      io.Writer
	n      atomic.Int64
	mu     sync.Mutex
	record bool
	kept   bytes.Buffer
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	c.mu.Lock()
	if c.record {
		c.kept.Write(p)
	}
	c.mu.Unlock()
	return c.w.Write(p)
}

// A large read over MCP is one text block holding the registry's
// canonical JSON, and the scene crosses the wire once: no tool has an
// outputSchema, so no structuredContent repeats it.
func TestMCPReadSendsTheSceneOnce(t *testing.T) {
	m := newMCPEnv(t)
	m.ok(t, CreateTool, mixedCreate(1000))
	want := m.call(t, ReadTool, `{"name":"mixed"}`)
	m.sent.mu.Lock()
	m.sent.record = true
	m.sent.mu.Unlock()
	res, n := m.callMCP(t, ReadTool, map[string]any{"name": "mixed"})
	m.sent.mu.Lock()
	wire := m.sent.kept.String()
	m.sent.mu.Unlock()
	if res.IsError || len(res.Content) != 1 || res.StructuredContent != nil {
		t.Fatalf("result has %d content blocks, structured content %v", len(res.Content), res.StructuredContent != nil)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if text != string(want.JSON) {
		t.Fatalf("text differs from the registry's JSON (%d vs %d bytes)", len(text), len(want.JSON))
	}
	// A label is in the text as often as the scene has it; on the wire
	// (the text, escaped once more) it must be as often again, not twice.
	for _, label := range []string{"Box 0", "Box 617", "Note 995"} {
		inText := strings.Count(text, label+`"`)
		onWire := strings.Count(wire, label+`\"`)
		if inText == 0 || onWire != inText {
			t.Errorf("%q: %d times in the text, %d on the wire", label, inText, onWire)
		}
	}
	t.Logf("read of 1,000 elements: %d bytes of text, %d bytes on the wire", len(text), n)
}

// mcpEnv is env served over MCP stdio (newline-delimited JSON-RPC through
// pipes) to the go-sdk client, counting the bytes the server sends.
type mcpEnv struct {
	*env
	cs   *mcp.ClientSession
	sent *countingWriter
}

func newMCPEnv(tb testing.TB) *mcpEnv {
	tb.Helper()
	e := newEnv(tb, scene.Limits{})
	srv := mcpserve.New(e.reg, mcpserve.Options{})
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	sent := &countingWriter{w: s2cW}
	served := make(chan error, 1)
	go func() { served <- srv.ServeStdio(context.Background(), c2sR, sent) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: s2cR, Writer: c2sW}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cs.Close()
		<-served
		s2cW.Close()
		srv.Close()
	})
	return &mcpEnv{env: e, cs: cs, sent: sent}
}

// callMCP calls a tool through the client and returns the result and the
// bytes the server sent for it.
func (m *mcpEnv) callMCP(tb testing.TB, name string, args map[string]any) (*mcp.CallToolResult, int64) {
	tb.Helper()
	before := m.sent.n.Load()
	res, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatal(err)
	}
	return res, m.sent.n.Load() - before
}

// BenchmarkMCPRead1000 reads a 1,000-element scene (include full) through
// MCP stdio with the go-sdk client; wire-B/op is what the server sends.
func BenchmarkMCPRead1000(b *testing.B) {
	m := newMCPEnv(b)
	m.ok(b, CreateTool, mixedCreate(1000))
	args := map[string]any{"name": "mixed"}
	var wire int64
	b.ReportAllocs()
	for b.Loop() {
		res, n := m.callMCP(b, ReadTool, args)
		if res.IsError {
			b.Fatal("read failed")
		}
		wire = n
	}
	b.ReportMetric(float64(wire), "wire-B/op")
}
