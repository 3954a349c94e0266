package tools

import (
	"context"
	"encoding/json"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// Trace starts a span for every call from now on, from tp's tracer, with
// the tool, its outcome and the request id as attributes; the handler's
// context carries it, so the plugin's own spans are its children. nil
// stops tracing (the default: no span, no cost but one atomic load).
func (r *Registry) Trace(tp trace.TracerProvider) {
	if tp == nil {
		r.tracer.Store(nil)
		return
	}
	t := tp.Tracer("github.com/dshgo/dsh/plugins/tools")
	r.tracer.Store(&t)
}

// startSpan starts the call's span, "tool <name>" (a name no tool has
// is "tool unknown": the caller chose it), when the registry traces.
func (r *Registry) startSpan(ctx context.Context, name string) (context.Context, trace.Span) {
	t := r.tracer.Load()
	if t == nil {
		return ctx, nil
	}
	label := name
	if _, ok := r.get(name); !ok {
		label = unknownToolLabel
	}
	ctx, span := (*t).Start(ctx, "tool "+label, trace.WithAttributes(attribute.String("tool", label)))
	if id := apierr.RequestID(ctx); id != "" {
		span.SetAttributes(attribute.String("request_id", id))
	}
	return ctx, span
}

// endSpan ends span (nil: untraced) with the call's outcome; a failure's
// error code marks it an error.
func endSpan(span trace.Span, outcome string) {
	if span == nil {
		return
	}
	span.SetAttributes(attribute.String("outcome", outcome))
	if outcome != OutcomeOK && outcome != OutcomeNotOK {
		span.SetStatus(codes.Error, outcome)
	}
	span.End()
}

// logCall writes the call's access line: request_id (the HTTP request
// that carried it, when one did), the principal's kind and name, the
// tool, the board its BoardArgument names, the outcome (ok, not_ok or
// the error code) and the latency. An internal error is a warning.
func (r *Registry) logCall(ctx context.Context, name string, args json.RawMessage, outcome string, d time.Duration) {
	level := zapcore.InfoLevel
	if outcome == CodeInternal {
		level = zapcore.WarnLevel
	}
	ce := r.access.Check(level, "tool call")
	if ce == nil {
		return
	}
	fields := make([]zap.Field, 0, 7)
	fields = append(fields, zap.String("request_id", apierr.RequestID(ctx)))
	if who, ok := identity.From(ctx); ok {
		fields = append(fields, zap.String("principal_kind", who.Kind), zap.String("principal", who.Name))
	}
	fields = append(fields, zap.String("tool", name))
	if e, ok := r.get(name); ok && e.board != "" {
		if b, ok := topString(args, e.board); ok {
			fields = append(fields, zap.String("board", b))
		}
	}
	fields = append(fields, zap.String("outcome", outcome), zap.Duration("latency", d))
	ce.Write(fields...)
}

// withRequestID is an error's details with the request's id added
// (apierr.DetailRequestID): details that are an object, or none, get it;
// others are left as they are.
func withRequestID(details any, id string) any {
	switch d := details.(type) {
	case nil:
		return map[string]any{apierr.DetailRequestID: id}
	case map[string]any:
		d[apierr.DetailRequestID] = id
		return d
	}
	return details
}

// topString is the string value of the top-level member name of the
// JSON object raw, found by a skip-scan (nothing else is decoded).
func topString(raw []byte, name string) (string, bool) {
	s := skipScanner{b: raw}
	if !s.expect('{') {
		return "", false
	}
	if c, ok := s.peek(); ok && c == '}' {
		return "", false
	}
	for {
		if c, ok := s.peek(); !ok || c != '"' {
			return "", false
		}
		key, escaped, ok := s.str()
		if !ok || !s.expect(':') {
			return "", false
		}
		if keyIs(key, escaped, name) {
			if c, ok := s.peek(); !ok || c != '"' {
				return "", false
			}
			v, _, ok := s.str()
			var out string
			if !ok || json.Unmarshal(v, &out) != nil {
				return "", false
			}
			return out, true
		}
		if !s.skip() {
			return "", false
		}
		if c, _ := s.peek(); c != ',' {
			return "", false
		}
		s.i++
	}
}
