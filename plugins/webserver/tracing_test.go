package webserver

import (
	"net/http"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestRequestSpans: a traced server makes one server span per request,
// named by the method and the route's pattern (never the raw path; a
// request no route took is "unmatched"), with the method, route, status
// and request id; a caller's traceparent makes it part of that trace.
// Untraced again, it makes none.
func TestRequestSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	s := startServer(t, Config{}, admitAll)
	s.Trace(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	c := newClient(t)
	if _, err := s.Mount("p", Route{Method: "GET", Path: "/p/:x", Handler: text("hello"), Public: true}); err != nil {
		t.Fatal(err)
	}
	const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	ok := call(t, c, http.MethodGet, s.URL()+"/p/secret-name", nil, "traceparent", parent)
	missing := get(t, c, s.URL()+"/missing")
	eventually(t, "two spans", func() bool { return len(rec.Ended()) == 2 })

	byID := map[string]sdktrace.ReadOnlySpan{}
	for _, sp := range rec.Ended() {
		for _, kv := range sp.Attributes() {
			if kv.Key == "request_id" {
				byID[kv.Value.AsString()] = sp
			}
		}
	}
	want := func(r result, name, route string, status int) sdktrace.ReadOnlySpan {
		t.Helper()
		sp := byID[r.header.Get("X-Request-ID")]
		if sp == nil || sp.Name() != name {
			t.Fatalf("span of %s: %v", name, sp)
		}
		a := attribute.NewSet(sp.Attributes()...)
		if v, _ := a.Value("http.route"); v.AsString() != route {
			t.Fatalf("%s: route %v", name, v)
		}
		if v, _ := a.Value("http.response.status_code"); v.AsInt64() != int64(status) {
			t.Fatalf("%s: status %v", name, v)
		}
		if v, _ := a.Value("http.request.method"); v.AsString() != "GET" {
			t.Fatalf("%s: method %v", name, v)
		}
		return sp
	}
	sp := want(ok, "GET /p/:x", "/p/:x", http.StatusOK)
	if got := sp.SpanContext().TraceID().String(); got != "4bf92f3577b34da6a3ce929d0e0e4736" || sp.Parent().SpanID().String() != "00f067aa0ba902b7" {
		t.Fatalf("the caller's trace was not continued: trace %s parent %s", got, sp.Parent().SpanID())
	}
	want(missing, "GET "+RouteUnmatched, RouteUnmatched, http.StatusNotFound)

	s.Trace(nil)
	get(t, c, s.URL()+"/p/1")
	if n := len(rec.Started()); n != 2 {
		t.Fatalf("%d spans after tracing stopped", n)
	}
}

// TestCallersRequestID: a caller's X-Request-ID is the request's id when
// it is short printable ASCII, and replaced by one of ours otherwise;
// the answer's header and an error's details agree either way.
func TestCallersRequestID(t *testing.T) {
	s := startServer(t, Config{}, admitAll)
	c := newClient(t)
	for sent, kept := range map[string]bool{"req-42": true, strings.Repeat("x", 129): false, "two words": false} {
		r := call(t, c, http.MethodGet, s.URL()+"/missing", nil, "X-Request-ID", sent)
		e := decodeErrorReply(t, r)
		id := r.header.Get("X-Request-ID")
		if (id == sent) != kept || id == "" || e.Error.Details["request_id"] != id {
			t.Errorf("sent %q: header %q, details %v", sent, id, e.Error.Details)
		}
	}
}
