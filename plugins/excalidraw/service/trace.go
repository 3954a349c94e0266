package service

import (
	"context"

	otelattr "go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// Spans: a write's phases, children of the span the caller's context
// carries (the host's tool call or HTTP request), from that span's own
// provider. An untraced context carries a no-op span, whose provider
// makes no-op spans: tracing off costs a context lookup per phase.
const (
	spanWrite  = "excalidraw.write"  // a whole write
	spanPlan   = "excalidraw.plan"   // the plan, under the scene's lock
	spanLint   = "excalidraw.lint"   // the wait for the lint that ran beside the commit
	spanCommit = "excalidraw.commit" // the store's commit of a write, create or save (a group's wait included)
)

// tracerName names the spans' instrumentation scope.
const tracerName = "github.com/dshgo/dsh/plugins/excalidraw/service"

// untraced is the span of an untraced phase: ending it does nothing.
var untraced = trace.SpanFromContext(context.Background())

// startSpan starts a child span of ctx's span for the scene name.
func startSpan(ctx context.Context, span, name string) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.IsRecording() {
		return ctx, untraced
	}
	return parent.TracerProvider().Tracer(tracerName).Start(ctx, span, trace.WithAttributes(otelattr.String("board", name)))
}

// endCommit ends a commit's span with the store's answer: the revision
// and commit id written, or the error.
func endCommit(span trace.Span, res *store.Result, err error) {
	if !span.IsRecording() {
		return
	}
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	} else if res != nil {
		span.SetAttributes(otelattr.Int64("revision", res.Revision))
		if res.Commit != "" { // none for a write that changed nothing
			span.SetAttributes(otelattr.String("commit", res.Commit))
		}
	}
	span.End()
}
