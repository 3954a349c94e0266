package excalidraw_test

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/fx"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// observedHost is a host with the Excalidraw plugin whose logs land in
// the returned observer and, with tp, whose spans go to tp.
func observedHost(t *testing.T, tp *sdktrace.TracerProvider) (*dsh.Host, *observer.ObservedLogs) {
	core, logs := observer.New(zapcore.InfoLevel)
	opts := []dsh.Option{dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw}\n"))),
		dsh.WithFx(fx.Decorate(func(*zap.Logger) *zap.Logger { return zap.New(core) }))}
	if tp != nil {
		opts = append(opts, dsh.WithTracerProvider(tp))
	}
	h := hosttest.New(t, opts...)
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	return h, logs
}

// callTool calls name over the session and returns the result's text.
func callTool(t *testing.T, sess *mcp.ClientSession, name, args string) string {
	t.Helper()
	res, err := sess.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// attrs are a span's attributes by key.
func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	out := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		out[kv.Key] = kv.Value
	}
	return out
}

// TestTraceOfAToolCall: a real MCP tool call that writes a board makes a
// trace in the host's provider: the tool's span (tool, outcome, request
// id) with the service's write, store commit (the revision and the
// commit id its journal entry has, whose access id is the tool's request
// id) and plan under it; the HTTP request that carried it has its own span, named by
// its route pattern, with the same request id; an editor's save over
// HTTP has its route's span with the store commit (revision 3) under it.
func TestTraceOfAToolCall(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	h, _ := observedHost(t, tp)
	sess, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	if out := callTool(t, sess, "excalidraw_scene_create", `{"name":"traced","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":60}]}`); !strings.Contains(out, `"revision":1`) {
		t.Fatalf("create: %s", out)
	}
	if out := callTool(t, sess, "excalidraw_scene_apply", `{"name":"traced","expected_revision":1,"operations":[{"op":"update","id":"a","patch":{"x":50}}]}`); !strings.Contains(out, `"revision":2`) {
		t.Fatalf("apply: %s", out)
	}
	closeMCP()
	// The editor's save over HTTP: its request's span, named by the
	// route's pattern (never the board's name), holds the store commit.
	c := hosttest.Client(t)
	bearer := []string{"Authorization", "Bearer " + h.Token()}
	got := hosttest.Send(t, c, http.MethodGet, h.URL()+"/dsh-excalidraw/api/scenes/traced", "", bearer...)
	var read struct{ Scene json.RawMessage }
	if err := json.Unmarshal([]byte(got.Body), &read); err != nil || got.Status != http.StatusOK {
		t.Fatalf("GET scene: %d %s", got.Status, got.Body)
	}
	saved := hosttest.Send(t, c, http.MethodPut, h.URL()+"/dsh-excalidraw/api/scenes/traced",
		`{"scene":`+strings.Replace(string(read.Scene), `"x":50`, `"x":70`, 1)+`,"expected_revision":2}`, append(bearer, "Content-Type", "application/json")...)
	if saved.Status != http.StatusOK || !strings.Contains(saved.Body, `"revision":3`) {
		t.Fatalf("save: %d %s", saved.Status, saved.Body)
	}
	const saveRoute = "PUT /dsh-excalidraw/api/scenes/:name"
	hosttest.Eventually(t, "the save's span", func() bool {
		for _, s := range rec.Ended() {
			if s.Name() == saveRoute && attrs(s)["request_id"].AsString() == saved.Header.Get("X-Request-ID") {
				return true
			}
		}
		return false
	})

	spans := rec.Ended()
	var tool sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == "tool excalidraw_scene_apply" {
			tool = s
		}
	}
	if tool == nil {
		t.Fatalf("no span of the apply among %d", len(spans))
	}
	ta := attrs(tool)
	reqID := ta["request_id"].AsString()
	if ta["tool"].AsString() != "excalidraw_scene_apply" || ta["outcome"].AsString() != "ok" || reqID == "" {
		t.Fatalf("tool span attributes %v", ta)
	}
	// The service's spans: write under the tool, commit under the write,
	// plan under the commit (it runs under the scene's lock).
	child := func(parent sdktrace.ReadOnlySpan, name string) sdktrace.ReadOnlySpan {
		t.Helper()
		for _, s := range spans {
			if s.Name() == name && s.Parent().SpanID() == parent.SpanContext().SpanID() {
				if s.SpanContext().TraceID() != parent.SpanContext().TraceID() {
					t.Fatalf("%s in another trace", name)
				}
				return s
			}
		}
		t.Fatalf("no %s under %s", name, parent.Name())
		return nil
	}
	write := child(tool, "excalidraw.write")
	commit := child(write, "excalidraw.commit")
	child(commit, "excalidraw.plan")
	// The commit spans name the journal entries their commits wrote,
	// whose access ids are the request ids of the spans above them.
	st, err := store.Open(store.Options{Dir: filepath.Join(h.Config.Host.DataDir, "excalidraw", "drawings"), Codec: scene.Codec{}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	page, err := st.Log(hosttest.Context(t), store.LogQuery{Name: "traced"})
	if err != nil || len(page.Entries) != 3 {
		t.Fatalf("journal: %v %+v", err, page)
	}
	applied, edited := page.Entries[1], page.Entries[0]
	if ca := attrs(commit); ca["revision"].AsInt64() != 2 || ca["board"].AsString() != "traced" ||
		ca["commit"].AsString() != applied.Commit || applied.AccessID != reqID {
		t.Fatalf("commit span attributes %v; revision 2's entry %+v, the tool's request id %s", ca, applied, reqID)
	}
	for _, s := range spans {
		if s.Name() == saveRoute {
			ca := attrs(child(s, "excalidraw.commit"))
			if ca["revision"].AsInt64() != 3 || ca["commit"].AsString() != edited.Commit || edited.AccessID != attrs(s)["request_id"].AsString() {
				t.Fatalf("the save's commit span attributes %v; revision 3's entry %+v", ca, edited)
			}
		}
	}
	// The HTTP request that carried the call: named by the route's
	// pattern, with the same request id. Its span ends once the answer
	// is written, which the client may see first.
	hosttest.Eventually(t, "the POST /mcp span of request "+reqID, func() bool {
		for _, s := range rec.Ended() {
			a := attrs(s)
			if a["request_id"].AsString() == reqID && s.Name() == "POST /mcp" &&
				a["http.route"].AsString() == "/mcp" && a["http.response.status_code"].AsInt64() == http.StatusOK {
				return true
			}
		}
		return false
	})
}

// TestUntracedHostMakesNoSpans: without host.tracing (and no provider
// given) a tool call and an HTTP request leave the host's services
// untraced: a recorder set as a would-be provider sees nothing, because
// the host never reaches for a global one.
func TestUntracedHostMakesNoSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)) // never given to the host
	h, _ := observedHost(t, nil)
	sess, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	if out := callTool(t, sess, "excalidraw_scene_create", `{"name":"plain","elements":[]}`); !strings.Contains(out, `"revision":1`) {
		t.Fatalf("create: %s", out)
	}
	if n := len(rec.Ended()) + len(rec.Started()); n != 0 {
		t.Fatalf("%d spans", n)
	}
}

// TestAccessLineOfAToolCall: a tool call over MCP logs one access line
// with the request id, the principal's kind and name, the tool, the
// board its arguments name, the outcome and the latency; the journal
// entry of the write keeps the same request id; a failed call's error
// details carry it too.
func TestAccessLineOfAToolCall(t *testing.T) {
	h, logs := observedHost(t, nil)
	sess, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	if out := callTool(t, sess, "excalidraw_scene_create", `{"name":"logged","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":10,"height":10}]}`); !strings.Contains(out, `"revision":1`) {
		t.Fatalf("create: %s", out)
	}
	stale := callTool(t, sess, "excalidraw_scene_apply", `{"name":"logged","expected_revision":7,"operations":[{"op":"delete","id":"a"}]}`)

	lines := logs.FilterMessage("tool call").AllUntimed()
	byTool := map[string]map[string]any{}
	for _, l := range lines {
		f := l.ContextMap()
		byTool[f["tool"].(string)] = f
	}
	created, refused := byTool["excalidraw_scene_create"], byTool["excalidraw_scene_apply"]
	if created == nil || refused == nil {
		t.Fatalf("access lines %v", lines)
	}
	reqID, _ := created["request_id"].(string)
	if reqID == "" || created["principal_kind"] != "token" || created["principal"] == "" || created["board"] != "logged" ||
		created["outcome"] != "ok" || created["latency"] == nil {
		t.Fatalf("create's access line %v", created)
	}
	if refused["outcome"] != "revision_conflict" || refused["board"] != "logged" || refused["request_id"] == reqID {
		t.Fatalf("stale apply's access line %v", refused)
	}
	// The refusal's details name its request, as its access line does.
	var answer struct {
		Error struct {
			Code    string
			Details map[string]any
		}
	}
	if err := json.Unmarshal([]byte(stale), &answer); err != nil || answer.Error.Code != "revision_conflict" ||
		answer.Error.Details["request_id"] != refused["request_id"] {
		t.Fatalf("stale apply answered %s (access line %v)", stale, refused)
	}
	// The HTTP request that carried the create logged the same id (once
	// its answer was written, which the client may see first).
	hosttest.Eventually(t, "the HTTP access line of request "+reqID, func() bool {
		for _, l := range logs.FilterMessage("request").AllUntimed() {
			f := l.ContextMap()
			if f["request_id"] == reqID && f["route"] == "/mcp" && f["principal_kind"] == "token" {
				return true
			}
		}
		return false
	})
	// The commit's journal entry keeps the request id.
	st, err := store.Open(store.Options{Dir: filepath.Join(h.Config.Host.DataDir, "excalidraw", "drawings"), Codec: scene.Codec{}})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	page, err := st.Log(hosttest.Context(t), store.LogQuery{Name: "logged"})
	if err != nil || len(page.Entries) != 1 {
		t.Fatalf("journal: %v %+v", err, page)
	}
	if got := page.Entries[0].AccessID; got != reqID {
		t.Fatalf("journal entry's accessId %q, access line's request_id %q", got, reqID)
	}
}
