package webserver

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// RouteUnmatched is the route label of a request no mounted route took.
const RouteUnmatched = "unmatched"

// httpMetrics are the web server's instruments: requests by route
// pattern (never the raw path), method and status.
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// Instrument registers the server's request metrics with reg and starts
// counting: dsh_http_requests_total{route,method,code} and
// dsh_http_request_duration_seconds{route,method,class}. Before it (or
// without it) requests are not timed at all.
func (s *Server) Instrument(reg prometheus.Registerer) error {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "dsh_http_requests_total",
			Help: "HTTP requests answered, by route pattern, method and status code.",
		}, []string{"route", "method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "dsh_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern, method and status class (2xx, 4xx...).",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "method", "class"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration} {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	s.metrics.Store(m)
	return nil
}

// routeKey carries a request's *routeSlot in its context.
type routeKey struct{}

// routeSlot is where the matched route writes its pattern.
type routeSlot struct{ pattern string }

// metricsState is the Server's hold on its instruments; nil until
// Instrument.
type metricsState = atomic.Pointer[httpMetrics]

// observeRequests times every request and counts it under the pattern of
// the route that took it (labelRoute writes it). It sits outside the
// access log, which has resolved any error into the response by then.
func (s *Server) observeRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		m := s.metrics.Load()
		if m == nil {
			return next(c)
		}
		start := time.Now()
		slot := &routeSlot{pattern: RouteUnmatched}
		req := c.Request()
		c.SetRequest(req.WithContext(context.WithValue(req.Context(), routeKey{}, slot)))
		err := next(c)
		status := c.Response().Status
		method := methodLabel(req.Method)
		m.requests.WithLabelValues(slot.pattern, method, strconv.Itoa(status)).Inc()
		m.duration.WithLabelValues(slot.pattern, method, statusClass(status)).Observe(time.Since(start).Seconds())
		return err
	}
}

// labelRoute tells observeRequests which route pattern took the request.
func labelRoute(pattern string, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		noteRoute(c.Request().Context(), pattern)
		if slot, ok := c.Request().Context().Value(routeKey{}).(*routeSlot); ok {
			slot.pattern = pattern
		}
		return next(c)
	}
}

// methodLabel is the method as a label: one of the standard ones, else
// "other" (a client may send any token).
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}

// statusClass is "2xx" for 200..299 and so on.
func statusClass(code int) string {
	if code < 100 || code > 599 {
		return "other"
	}
	return strconv.Itoa(code/100) + "xx"
}
