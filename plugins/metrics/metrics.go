// Package metrics is the host's "metrics" service: one Prometheus
// registry per host (never the process-wide default, so hosts embedded
// side by side and tests do not collide), holding the Go runtime and
// process collectors, the host's own instruments and those plugins add
// with Use. Handler serves it in the Prometheus text format.
//
// Names follow Prometheus conventions: a dsh_ prefix, _total on
// counters, _seconds on durations, and labels of bounded cardinality
// (a route pattern, a tool's name, an error code; never a board name, a
// token or a raw path).
package metrics

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/dshgo/dsh/app"
)

// ServiceName is the name the service is provided under in the scope tree.
const ServiceName = "metrics"

// Path is where the host serves the metrics.
const Path = "/metrics"

// Service is one host's metrics: its registry.
type Service struct {
	reg *prometheus.Registry
	// listening is the address Listen bound last, for tests and logs.
	listening atomic.Pointer[net.Addr]
}

// New returns a service whose registry holds the Go runtime and process
// collectors.
func New() *Service {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return &Service{reg: reg}
}

// Registerer is where the host's own instruments register.
func (s *Service) Registerer() prometheus.Registerer { return s.reg }

// Gatherer reads every registered metric (tests, other exporters).
func (s *Service) Gatherer() prometheus.Gatherer { return s.reg }

// Handler serves the registry in the Prometheus exposition format. It
// checks no credential: whoever mounts it does.
func (s *Service) Handler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// Register adds collectors, all or none, and returns the function that
// removes them again.
func (s *Service) Register(cs ...prometheus.Collector) (unregister func(), err error) {
	for i, c := range cs {
		if err := s.reg.Register(c); err != nil {
			for _, done := range cs[:i] {
				s.reg.Unregister(done)
			}
			return nil, fmt.Errorf("metrics: %w", err)
		}
	}
	return func() {
		for _, c := range cs {
			s.reg.Unregister(c)
		}
	}, nil
}

// Use registers a plugin's collectors as one effect: when its scope
// unloads they are unregistered, so a reload registers fresh ones without
// a duplicate-registration error. A host without the service (embedded,
// some tests) takes nothing and Use returns false; the scope should
// inject app.Maybe(ServiceName).
func Use(ctx *app.Context, cs ...prometheus.Collector) (bool, error) {
	v, ok := ctx.Get(ServiceName)
	if !ok {
		return false, nil
	}
	s, ok := v.(*Service)
	if !ok {
		return false, fmt.Errorf("metrics: service %q is %T, not *metrics.Service", ServiceName, v)
	}
	_, err := ctx.Acquire(fmt.Sprintf("metrics (%d collectors)", len(cs)), func() (app.Disposer, error) {
		unregister, err := s.Register(cs...)
		if err != nil {
			return nil, err
		}
		return func(context.Context) error { unregister(); return nil }, nil
	})
	return err == nil, err
}
