package dsh_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/status"
	"github.com/dshgo/dsh/plugins/tools"
)

// TestTracingOffMakesNoSpans: a host without host.tracing starts no span
// for an HTTP request or a tool call (a tool's handler sees no span at
// all), and does not fall back on OpenTelemetry's global provider.
func TestTracingOffMakesNoSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	t.Cleanup(func() { otel.SetTracerProvider(prev) })

	h := hosttest.New(t, dsh.WithPlugins(status.Plugin), dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: status, name: status}\n"))))
	var spanned bool
	unregister, err := h.Tools.Register(tools.Tool{Name: "probe_span", Description: "Says whether the call has a span.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(ctx context.Context, _ json.RawMessage) (any, error) {
			spanned = trace.SpanFromContext(ctx).SpanContext().IsValid()
			return map[string]any{}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	if res := h.Tools.Call(hosttest.Context(t), "probe_span", nil); !res.OK || spanned {
		t.Fatalf("call: %s, spanned %v", res.JSON, spanned)
	}
	if r := hosttest.Send(t, hosttest.Client(t), http.MethodGet, h.URL()+"/api/status", "", "Authorization", "Bearer "+h.Token()); r.Status != http.StatusOK {
		t.Fatalf("GET /api/status: %d %s", r.Status, r.Body)
	}
	if n := len(rec.Started()); n != 0 {
		t.Fatalf("%d spans in the global provider", n)
	}
}

// otlpReceiver is a collector's OTLP/HTTP traces endpoint that keeps the
// span names and service names it is sent.
type otlpReceiver struct {
	mu       sync.Mutex
	spans    []string
	services []string
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
		http.Error(w, "not a traces export", http.StatusBadRequest)
		return
	}
	var req coltracepb.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		for _, a := range rs.GetResource().GetAttributes() {
			if a.GetKey() == "service.name" {
				o.services = append(o.services, a.GetValue().GetStringValue())
			}
		}
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				o.spans = append(o.spans, s.GetName())
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	_, _ = w.Write(out)
}

// TestTracingExportsOverOTLP: host.tracing.endpoint sends the spans of an
// HTTP request and a tool call to the collector over OTLP/HTTP, under
// the configured service name; stopping the host flushes them.
func TestTracingExportsOverOTLP(t *testing.T) {
	recv := &otlpReceiver{}
	collector := httptest.NewServer(recv)
	defer collector.Close()
	yaml := hosttest.ConfigYAML(t.TempDir(), "  tracing: {endpoint: \""+collector.URL+"\", serviceName: dsh-traced}\n", "  - {id: status, name: status}\n")
	h, err := dsh.New(dsh.WithPlugins(status.Plugin), dsh.WithConfigYAML([]byte(yaml)))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	if r := hosttest.Send(t, hosttest.Client(t), http.MethodGet, h.URL()+"/api/status", "", "Authorization", "Bearer "+h.Token()); r.Status != http.StatusOK {
		t.Fatalf("GET /api/status: %d %s", r.Status, r.Body)
	}
	if res := h.Tools.Call(hosttest.Context(t), "dsh_status", nil); !res.OK {
		t.Fatalf("dsh_status: %s", res.JSON)
	}
	if err := h.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	recv.mu.Lock()
	defer recv.mu.Unlock()
	got := strings.Join(recv.spans, "|")
	if !strings.Contains(got, "GET /api/status") || !strings.Contains(got, "tool dsh_status") {
		t.Fatalf("spans received: %q", recv.spans)
	}
	for _, s := range recv.services {
		if s != "dsh-traced" {
			t.Fatalf("service names %q", recv.services)
		}
	}
}

// TestTracingConfigRefused: the schema refuses an endpoint that is
// neither a URL nor host:port (a sample ratio outside 0..1 is clamped,
// as every number is).
func TestTracingConfigRefused(t *testing.T) {
	for _, bad := range []string{"  tracing: {endpoint: \"not an endpoint\"}\n", "  tracing: {endpoint: \"ftp://x:1\"}\n"} {
		if _, err := dsh.New(dsh.WithConfigYAML([]byte(hosttest.ConfigYAML(t.TempDir(), bad, "")))); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
