package dsh

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/webserver"
)

// TracingConfig is the host's `tracing:` section: OpenTelemetry traces
// sent over OTLP/HTTP, off while Endpoint is empty.
type TracingConfig struct {
	// Endpoint is the collector: a URL (its path defaults to /v1/traces)
	// or host:port.
	Endpoint string `json:"endpoint"`
	// Insecure sends over plain HTTP instead of TLS.
	Insecure bool `json:"insecure"`
	// SampleRatio is the share of new traces kept (0..1); a caller's
	// traceparent decides for the traces it continues.
	SampleRatio float64 `json:"sampleRatio"`
	// ServiceName is service.name on every span.
	ServiceName string `json:"serviceName"`
}

// tracerSource is a tracer provider given to New (WithTracerProvider).
type tracerSource struct{ provider trace.TracerProvider }

// WithTracerProvider makes the host trace into tp, whatever its config
// says: tests (an in-process recorder) and programs that embed a host
// and own their provider. The host never sets OpenTelemetry's global
// provider or propagator, so hosts in one process do not collide.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return WithFx(fx.Supply(tracerSource{provider: tp}))
}

// TracingModule traces the host when host.tracing.endpoint is set (or a
// provider was given): the web server starts a span per request, the
// tools registry one per call, and the plugins' spans hang under the
// call's (they start theirs from the context's span). Off, nothing is
// built: no exporter, no provider, no span.
var TracingModule = fx.Module("tracing",
	fx.Invoke(func(in struct {
		fx.In
		Given  tracerSource `optional:"true"`
		Config *LoadedConfig
		LC     fx.Lifecycle
		Log    *zap.Logger
		Tools  *tools.Registry
		Web    *webserver.Server `optional:"true"`
	}) error {
		var tp trace.TracerProvider
		switch {
		case in.Given.provider != nil:
			tp = in.Given.provider
		case in.Config.Host.Tracing.Endpoint != "":
			sdk, err := newTracerProvider(in.Config.Host.Tracing)
			if err != nil {
				return err
			}
			in.LC.Append(fx.StopHook(func(ctx context.Context) error { return sdk.Shutdown(ctx) }))
			in.Log.Info("tracing", zap.String("endpoint", in.Config.Host.Tracing.Endpoint),
				zap.Float64("sampleRatio", in.Config.Host.Tracing.SampleRatio))
			tp = sdk
		}
		if tp == nil {
			return nil
		}
		in.Tools.Trace(tp)
		if in.Web != nil {
			in.Web.Trace(tp)
		}
		return nil
	}),
)

// newTracerProvider builds the provider that batches spans to c's
// collector over OTLP/HTTP. The exporter connects lazily: a collector
// that is down costs dropped spans, never a failed start.
func newTracerProvider(c TracingConfig) (*sdktrace.TracerProvider, error) {
	opts := []otlptracehttp.Option{otlptracehttp.WithEndpoint(c.Endpoint)}
	if strings.Contains(c.Endpoint, "://") {
		u, err := url.Parse(c.Endpoint)
		if err != nil {
			return nil, fmt.Errorf("tracing: endpoint: %w", err)
		}
		if u.Path == "" || u.Path == "/" {
			u.Path = "/v1/traces"
		}
		opts = []otlptracehttp.Option{otlptracehttp.WithEndpointURL(u.String())}
	}
	if c.Insecure {
		opts = append(opts, otlptracehttp.WithInsecure())
	}
	exp, err := otlptracehttp.New(context.Background(), opts...)
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	res := resource.NewSchemaless(attribute.String("service.name", c.ServiceName),
		attribute.String("service.version", Version))
	return sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(c.SampleRatio))),
	), nil
}
