package webserver

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// traceContext reads a caller's W3C traceparent, so a request traced
// upstream continues that trace. It is the server's own, not the global
// propagator: two hosts in one process never share settings.
var traceContext = propagation.TraceContext{}

// Trace starts a span for every request from now on, from tp's tracer;
// nil stops tracing (the default: no span, no cost but one atomic load).
func (s *Server) Trace(tp trace.TracerProvider) {
	if tp == nil {
		s.tracer.Store(nil)
		return
	}
	t := tp.Tracer("github.com/dshgo/dsh/plugins/webserver")
	s.tracer.Store(&t)
}

// traced serves the request inside a server span named by its method and
// route pattern ("GET /boards/{name}"), with the method, route, status
// and request id as attributes.
func (s *Server) traced(c echo.Context, t trace.Tracer, note *accessNote, id string, next echo.HandlerFunc) error {
	req := c.Request()
	ctx := traceContext.Extract(req.Context(), propagation.HeaderCarrier(req.Header))
	ctx, span := t.Start(ctx, req.Method, trace.WithSpanKind(trace.SpanKindServer))
	defer span.End()
	c.SetRequest(req.WithContext(ctx))
	err := next(c)
	status := c.Response().Status
	span.SetName(methodLabel(req.Method) + " " + note.route)
	span.SetAttributes(
		attribute.String("http.request.method", methodLabel(req.Method)),
		attribute.String("http.route", note.route),
		attribute.Int("http.response.status_code", status),
		attribute.String("request_id", id),
	)
	if status >= http.StatusInternalServerError {
		span.SetStatus(codes.Error, http.StatusText(status))
	}
	return err
}
