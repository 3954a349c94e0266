package tools

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"slices"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// TestAccessCost (DSH_BENCH_ACCESS=1) logs what a small tool call's
// access line and span cost: rounds alternate a registry that logs at
// warn (no access line) and untraced, one that writes the line as JSON
// (to io.Discard), and one that also traces (the SDK's provider, every
// span sampled, none exported); the ratios of the second and third to
// the first, min/median/max over the rounds. Off by default.
func TestAccessCost(t *testing.T) {
	if os.Getenv("DSH_BENCH_ACCESS") == "" {
		return
	}
	enc := zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig())
	logger := func(l zapcore.Level) *zap.Logger {
		return zap.New(zapcore.NewCore(enc, zapcore.AddSync(io.Discard), l))
	}
	small := func(log *zap.Logger) *Registry {
		r := NewRegistry(log)
		tool := Tool{Name: "add", Description: "Add two integers.", BoardArgument: "name",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`),
			Handler: Typed(func(_ context.Context, in struct {
				Name string `json:"name"`
				A    int    `json:"a"`
				B    int    `json:"b"`
			}) (map[string]int, error) {
				return map[string]int{"sum": in.A + in.B}, nil
			})}
		mustRegister(t, r, tool)
		return r
	}
	base, logged, traced := small(logger(zapcore.WarnLevel)), small(logger(zapcore.InfoLevel)), small(logger(zapcore.InfoLevel))
	tp := sdktrace.NewTracerProvider()
	defer func() { _ = tp.Shutdown(context.Background()) }()
	traced.Trace(tp)
	ctx := identity.With(apierr.WithRequestID(context.Background(), "req-bench"), identity.Principal{Kind: "token", ID: "tok_1", Name: "bench"})
	args := json.RawMessage(`{"name":"plans","a":2,"b":40}`)
	const calls = 20000
	run := func(r *Registry) time.Duration {
		start := time.Now()
		for range calls {
			if res := r.Call(ctx, "add", args); !res.OK {
				t.Fatalf("call: %s", res.JSON)
			}
		}
		return time.Since(start)
	}
	var logRatio, traceRatio []float64
	for range 9 {
		a := run(base)
		b := run(logged)
		c := run(traced)
		a2 := run(base)
		mid := (a + a2) / 2
		logRatio = append(logRatio, float64(b)/float64(mid))
		traceRatio = append(traceRatio, float64(c)/float64(mid))
	}
	report := func(what string, r []float64) {
		slices.Sort(r)
		t.Logf("%s / no line, untraced: min %.3f median %.3f max %.3f (%d rounds of %d calls)", what, r[0], r[len(r)/2], r[len(r)-1], len(r), calls)
	}
	report("access line", logRatio)
	report("access line + span", traceRatio)
	t.Logf("one untraced call without a line: %v", run(base)/calls)
}
