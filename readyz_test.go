package dsh_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/health"
)

// gate is a test plugin with one readiness check whose answer the test
// sets; block, when not nil, holds the check until it is closed.
type gate struct {
	fail    atomic.Pointer[string]
	block   chan struct{}
	entered chan struct{}
}

func (g *gate) plugin() app.Plugin {
	return app.Plugin{
		Name:   "gate",
		Inject: []app.Dep{app.Need(health.ServiceName)},
		Apply: func(ctx *app.Context, _ app.Config) error {
			return health.Use(ctx, health.Check{Name: "gate.open", Probe: func(c context.Context) error {
				if g.block != nil {
					g.entered <- struct{}{}
					<-g.block
				}
				if reason := g.fail.Load(); reason != nil {
					return errors.New(*reason)
				}
				return nil
			}})
		},
	}
}

// readiness is /readyz's answer: the status and the checks it names
// (every check when ready, the failing ones when not).
type readiness struct {
	status int
	code   string
	checks map[string]health.Result
}

func readyz(t *testing.T, c *http.Client, url string) readiness {
	t.Helper()
	r := hosttest.Send(t, c, http.MethodGet, url+health.Path, "")
	var body struct {
		Checks []health.Result `json:"checks"`
		Error  struct {
			Details struct {
				Checks []health.Result `json:"checks"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Body), &body); err != nil {
		t.Fatalf("/readyz: %d %s", r.Status, r.Body)
	}
	out := readiness{status: r.Status, code: r.Code, checks: map[string]health.Result{}}
	for _, c := range append(body.Checks, body.Error.Details.Checks...) {
		out.checks[c.Name] = c
	}
	return out
}

// TestReadyz: a real host goes ready with the host's checks and a
// plugin's; a failing check, and a configured plugin unloaded, turn the
// probe 503 naming them; it needs no credential.
func TestReadyz(t *testing.T) {
	g := &gate{}
	h := hosttest.New(t, dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: gate, name: gate}\n"))), dsh.WithPlugins(g.plugin()))
	c := hosttest.Client(t)

	got := readyz(t, c, h.URL())
	if got.status != http.StatusOK || len(got.checks) != 3 || !got.checks["plugins"].OK || !got.checks["storage"].OK || !got.checks["gate.open"].OK {
		t.Fatalf("a started host: %+v", got)
	}

	reason := "the gate is shut"
	g.fail.Store(&reason)
	got = readyz(t, c, h.URL())
	if got.status != http.StatusServiceUnavailable || got.code != health.CodeNotReady || len(got.checks) != 1 || got.checks["gate.open"].Reason != reason {
		t.Fatalf("a failing check: %+v", got)
	}
	g.fail.Store(nil)

	if err := h.UnloadPlugin(hosttest.Context(t), "gate"); err != nil {
		t.Fatal(err)
	}
	got = readyz(t, c, h.URL())
	if got.status != http.StatusServiceUnavailable || len(got.checks) != 1 || !strings.Contains(got.checks["plugins"].Reason, "gate (gate) is unloaded") {
		t.Fatalf("the plugin unloaded (its check gone with it, the host's naming it): %+v", got)
	}

	if err := h.LoadPlugin(hosttest.Context(t), "gate"); err != nil {
		t.Fatal(err)
	}
	if got = readyz(t, c, h.URL()); got.status != http.StatusOK || !got.checks["gate.open"].OK {
		t.Fatalf("loaded again: %+v", got)
	}
}

// TestReadyzWhileStopping: a probe under way when the host starts to stop
// answers 503, naming the shutdown.
func TestReadyzWhileStopping(t *testing.T) {
	g := &gate{block: make(chan struct{}), entered: make(chan struct{}, 1)}
	h, err := dsh.New(dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: gate, name: gate}\n"))), dsh.WithPlugins(g.plugin()))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	c := hosttest.Client(t)
	answer := make(chan readiness, 1)
	go func() { answer <- readyz(t, c, h.URL()) }()
	<-g.entered

	stopped := make(chan error, 1)
	go func() { stopped <- h.Stop(context.Background()) }()
	reg, _ := h.Runtime.Service(health.ServiceName)
	hosttest.Eventually(t, "the stop to begin", reg.(*health.Registry).Stopping)
	close(g.block)

	got := <-answer
	if got.status != http.StatusServiceUnavailable || got.checks["host"].Reason != "shutting down" {
		t.Fatalf("a probe during the stop: %+v", got)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}
