// Package health is the "health" service: the readiness checks the host
// and its plugins register (each an effect, gone when its scope unloads)
// and the public GET /readyz probe that runs them. A load balancer sends
// traffic to a node only while /readyz answers 200; /healthz (the status
// plugin) only says the process answers.
//
// It is a host package rather than part of the status plugin because the
// probe must exist on every host with a web server, whether or not the
// status plugin is configured, and the host registers checks of its own
// (plugins loaded, storage reachable) before any plugin loads.
package health

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// ServiceName is the name the host provides its *Registry under.
const ServiceName = "health"

// Path is the readiness probe's route.
const Path = "/readyz"

// CodeNotReady is the probe's refusal: 503, with details {checks: the
// failing checks, each {name, reason}}.
const CodeNotReady = "not_ready"

// Timeout bounds one check: a check that has not answered by then fails.
const Timeout = 3 * time.Second

// Check is one readiness check.
type Check struct {
	// Name says what is checked ("storage", "excalidraw.store"); unique
	// on a host.
	Name string
	// Probe answers nil when ready. Its error's text is the reason the
	// public probe shows, so it must hold no secret (no password, no
	// token); a Coded error shows its client message instead.
	Probe func(context.Context) error
}

// Result is one check's outcome in the probe's answer.
type Result struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Reason string `json:"reason,omitempty"`
}

// Registry holds a host's readiness checks. It is safe for concurrent use.
type Registry struct {
	mu       sync.Mutex
	checks   map[string]Check
	running  *flight // the checks under way, which a probe arriving now shares
	stopping atomic.Bool
}

// flight is one run of the checks; results are set before done closes.
type flight struct {
	done    chan struct{}
	results []Result
}

// New is an empty Registry.
func New() *Registry { return &Registry{checks: map[string]Check{}} }

// Register adds c; unregister removes it. A name already registered is an
// error.
func (r *Registry) Register(c Check) (unregister func(), err error) {
	if c.Name == "" || c.Probe == nil {
		return nil, errors.New("health: a check needs a name and a probe")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.checks[c.Name]; dup {
		return nil, errors.New("health: check " + c.Name + " is already registered")
	}
	r.checks[c.Name] = c
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.checks, c.Name)
	}, nil
}

// MarkStopping marks the host as shutting down: from now on the probe
// answers 503 whatever the checks say.
func (r *Registry) MarkStopping() { r.stopping.Store(true) }

// Stopping reports whether MarkStopping was called.
func (r *Registry) Stopping() bool { return r.stopping.Load() }

// Run runs every check at once, each bounded by Timeout, and returns
// their results by name and whether all passed (false too while the host
// is stopping). Probes that arrive while the checks run share that run,
// so a flood of probes costs the stores one run at a time.
func (r *Registry) Run(ctx context.Context) (results []Result, ready bool) {
	r.mu.Lock()
	f := r.running
	if f == nil {
		f = &flight{done: make(chan struct{})}
		r.running = f
		checks := make([]Check, 0, len(r.checks))
		for _, c := range r.checks {
			checks = append(checks, c)
		}
		go r.fly(f, checks)
	}
	r.mu.Unlock()
	select {
	case <-f.done:
	case <-ctx.Done():
		return []Result{{Name: "host", Reason: "the probe ended before the checks"}}, false
	}
	results = append([]Result(nil), f.results...)
	ready = true
	for _, res := range results {
		ready = ready && res.OK
	}
	if r.stopping.Load() {
		results = append([]Result{{Name: "host", Reason: "shutting down"}}, results...)
		ready = false
	}
	return results, ready
}

// fly runs checks for f, each on its own bounded context (not a caller's:
// the run is shared), then ends f.
func (r *Registry) fly(f *flight, checks []Check) {
	sort.Slice(checks, func(i, j int) bool { return checks[i].Name < checks[j].Name })
	f.results = make([]Result, len(checks))
	var wg sync.WaitGroup
	for i, c := range checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.results[i] = run(context.Background(), c)
		}()
	}
	wg.Wait()
	r.mu.Lock()
	r.running = nil
	r.mu.Unlock()
	close(f.done)
}

// run runs one check, turning a panic or a late answer into a failure.
func run(ctx context.Context, c Check) (res Result) {
	res.Name = c.Name
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- errors.New("the check failed unexpectedly")
			}
		}()
		done <- c.Probe(ctx)
	}()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		err = errors.New("no answer within " + Timeout.String())
	}
	if err == nil {
		res.OK = true
		return res
	}
	res.Reason = err.Error()
	if coded, ok := apierr.As(err); ok {
		res.Reason = coded.ErrorMessage()
	}
	return res
}

// Use registers a readiness check for the calling plugin as an effect:
// when its scope unloads, the check is gone. A scope that injected the
// service as app.Maybe on a host without it registers nothing (no probe
// would run the check).
func Use(ctx *app.Context, c Check) error {
	reg, err := app.Get[*Registry](ctx, ServiceName)
	if errors.Is(err, app.ErrNotInjected) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = ctx.Acquire("readiness "+c.Name, func() (app.Disposer, error) {
		unregister, err := reg.Register(c)
		if err != nil {
			return nil, err
		}
		return func(context.Context) error { unregister(); return nil }, nil
	})
	return err
}

// Ready is the probe's answer when every check passed.
type Ready struct {
	Status string   `json:"status"`
	Checks []Result `json:"checks"`
}

// Endpoint is the built-in plugin that serves GET /readyz (public) once
// the web server is there: 200 with every check, or 503 not_ready with
// the failing ones.
func Endpoint(reg *Registry) app.Plugin {
	return app.Plugin{
		Name:   "readyz",
		Inject: []app.Dep{app.Need(webserver.ServiceName)},
		Apply: func(ctx *app.Context, _ app.Config) error {
			return webserver.Use(ctx, webserver.Route{Method: http.MethodGet, Path: Path, Public: true, Handler: reg.serve})
		},
	}
}

func (r *Registry) serve(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	results, ready := r.Run(c.Request().Context())
	if ready {
		return c.JSON(http.StatusOK, Ready{Status: "ready", Checks: results})
	}
	failing := make([]Result, 0, len(results))
	for _, res := range results {
		if !res.OK {
			failing = append(failing, res)
		}
	}
	return apierr.New(http.StatusServiceUnavailable, CodeNotReady, "this node is not ready to serve").With("checks", failing)
}
