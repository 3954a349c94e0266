package dsh_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/webserver"
)

// probe is the test plugin: it registers one of each kind of effect, with
// a marker effect between each so the markers' disposers can check, as
// the teardown runs, that every effect was undone in reverse order.
type probe struct {
	mu      sync.Mutex
	order   []string
	checks  []string // failures seen by the markers
	running atomic.Bool
	exited  chan struct{}
	host    *dsh.Host
	client  *http.Client
}

type probeService struct{ Name string }

func (p *probe) mark(name string, check func() string) app.Disposer {
	return func(context.Context) error {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.order = append(p.order, name)
		if msg := check(); msg != "" {
			p.checks = append(p.checks, name+": "+msg)
		}
		return nil
	}
}

func (p *probe) routeStatus() int {
	req, _ := http.NewRequest(http.MethodGet, p.host.URL()+"/probe/hello", nil)
	req.Header.Set("Authorization", "Bearer "+p.host.Token())
	resp, err := p.client.Do(req)
	if err != nil {
		return -1
	}
	resp.Body.Close()
	return resp.StatusCode
}

func (p *probe) plugin() app.Plugin {
	return app.Plugin{
		Name:   "probe",
		Inject: []app.Dep{app.Need(tools.ServiceName), app.Need(webserver.ServiceName)},
		Apply: func(ctx *app.Context, _ app.Config) error {
			rt := ctx.Runtime()
			steps := []func() error{
				func() error {
					_, err := ctx.Effect("mark 1", p.mark("mark 1", func() string {
						if _, ok := rt.Service("probe"); ok {
							return "service still provided"
						}
						return ""
					}))
					return err
				},
				func() error { return ctx.Provide("probe", &probeService{Name: "probe"}) },
				func() error {
					_, err := ctx.Effect("mark 2", p.mark("mark 2", func() string {
						if p.running.Load() {
							return "goroutine still running"
						}
						if _, ok := rt.Service("probe"); !ok {
							return "service gone too early"
						}
						return ""
					}))
					return err
				},
				func() error {
					return ctx.Go("worker", func(c context.Context) {
						p.running.Store(true)
						defer close(p.exited)
						defer p.running.Store(false)
						<-c.Done()
					})
				},
				func() error {
					_, err := ctx.Effect("mark 3", p.mark("mark 3", func() string {
						if _, ok := p.host.Tools.Lookup("probe_echo"); ok {
							return "tool still registered"
						}
						if !p.running.Load() {
							return "goroutine stopped too early"
						}
						return ""
					}))
					return err
				},
				func() error {
					return tools.Use(ctx, tools.Tool{
						Name:        "probe_echo",
						Description: "Echo a message back.",
						InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["msg"],"properties":{"msg":{"type":"string"}}}`),
						Annotations: tools.Annotations{ReadOnly: true},
						Handler: tools.Typed(func(_ context.Context, in struct {
							Msg string `json:"msg"`
						}) (map[string]any, error) {
							return map[string]any{"echo": in.Msg}, nil
						}),
					})
				},
				func() error {
					_, err := ctx.Effect("mark 4", p.mark("mark 4", func() string {
						if s := p.routeStatus(); s != http.StatusNotFound {
							return "route answers " + http.StatusText(s)
						}
						if _, ok := p.host.Tools.Lookup("probe_echo"); !ok {
							return "tool gone too early"
						}
						return ""
					}))
					return err
				},
				func() error {
					return webserver.Use(ctx, webserver.Route{Method: http.MethodGet, Path: "/probe/hello", Handler: func(c echo.Context) error {
						return c.String(http.StatusOK, "hello")
					}})
				},
				func() error {
					_, err := ctx.Effect("mark 5", p.mark("mark 5", func() string {
						if s := p.routeStatus(); s != http.StatusOK {
							return "route gone too early: " + http.StatusText(s)
						}
						return ""
					}))
					return err
				},
			}
			for _, step := range steps {
				if err := step(); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// TestLifecycle is the contract's disposal test on the real host: echo on
// loopback, the real tools registry, MCP over real HTTP with the SDK
// client.
func TestLifecycle(t *testing.T) {
	p := &probe{exited: make(chan struct{}), client: hosttest.Client(t)}
	h := hosttest.New(t,
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - id: probe\n    name: probe\n"))),
		dsh.WithPlugins(p.plugin()))
	p.host = h
	scope := hosttest.Scope(t, h, "probe")
	if err := scope.AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	sess, listChanged, closeMCP := hosttest.MCP(t, h)
	ignore := goleak.IgnoreCurrent()

	// The tool answers through the registry and through MCP.
	res := h.Tools.Call(hosttest.Context(t), "probe_echo", json.RawMessage(`{"msg":"hi"}`))
	if !res.OK || string(res.JSON) != `{"echo":"hi","ok":true}` {
		t.Fatalf("registry call: ok=%v %s", res.OK, res.JSON)
	}
	if !slices.Contains(hosttest.ToolNames(t, sess), "probe_echo") {
		t.Fatal("tools/list lacks probe_echo")
	}
	out, err := sess.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: "probe_echo", Arguments: map[string]any{"msg": "over mcp"}})
	if err != nil || out.IsError {
		t.Fatalf("MCP call: %v %+v", err, out)
	}
	if text := out.Content[0].(*mcp.TextContent).Text; text != `{"echo":"over mcp","ok":true}` {
		t.Fatalf("MCP call returned %s", text)
	}
	// The route answers, and the service is provided.
	if code, body := hosttest.Do(t, p.client, http.MethodGet, h.URL()+"/probe/hello", hosttest.Bearer(h)); code != 200 || body != "hello" {
		t.Fatalf("route: %d %q", code, body)
	}
	if v, ok := h.Runtime.Service("probe"); !ok || v.(*probeService).Name != "probe" {
		t.Fatal("service not provided")
	}
	hosttest.Drain(listChanged)

	// Dispose the plugin.
	if err := h.UnloadPlugin(hosttest.Context(t), "probe"); err != nil {
		t.Fatal(err)
	}

	p.mu.Lock()
	order, checks := strings.Join(p.order, ","), p.checks
	p.mu.Unlock()
	if order != "mark 5,mark 4,mark 3,mark 2,mark 1" {
		t.Fatalf("disposers ran in order %s", order)
	}
	for _, c := range checks {
		t.Error(c)
	}
	if code, _ := hosttest.Do(t, p.client, http.MethodGet, h.URL()+"/probe/hello", hosttest.Bearer(h)); code != http.StatusNotFound {
		t.Fatalf("route after dispose: %d, want 404", code)
	}
	if _, ok := h.Tools.Lookup("probe_echo"); ok {
		t.Fatal("tool survived dispose")
	}
	if res := h.Tools.Call(hosttest.Context(t), "probe_echo", json.RawMessage(`{"msg":"x"}`)); res.OK {
		t.Fatal("disposed tool still callable")
	}
	<-listChanged
	if slices.Contains(hosttest.ToolNames(t, sess), "probe_echo") {
		t.Fatal("MCP tools/list still has probe_echo")
	}
	if _, ok := h.Runtime.Service("probe"); ok {
		t.Fatal("service survived dispose")
	}
	select {
	case <-p.exited:
	default:
		t.Fatal("goroutine did not end")
	}
	if scope.State() != app.StateDisposed {
		t.Fatalf("scope state %s", scope.State())
	}
	closeMCP()
	p.client.CloseIdleConnections()
	goleak.VerifyNone(t, ignore)
}
