package excalidraw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/agenttools"
	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// TestMetricsCostOnAWrite measures what the metrics hooks cost a
// one-element write (excalidraw_scene_apply moving one rectangle, on the
// file store with its fsyncs): the same writes through a tools registry
// without metrics and a service without an observer (off), and through
// an instrumented registry and the plugin's observer (on), in alternate
// blocks, each round's on/off ratio logged with min/median/max. It is a
// measurement, off by default: DSH_BENCH_METRICS=ROUNDS[,WRITES] runs it
// (go test -run TestMetricsCostOnAWrite -v ./plugins/excalidraw/).
func TestMetricsCostOnAWrite(t *testing.T) {
	env := os.Getenv("DSH_BENCH_METRICS")
	if env == "" {
		return // a measurement, not a check: nothing to do by default
	}
	rounds, writes := 8, 200
	if _, err := fmt.Sscanf(env, "%d,%d", &rounds, &writes); err != nil {
		rounds, _ = strconv.Atoi(env)
	}
	svc, err := service.New(service.Config{DrawingsDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	hub := live.NewHub(nil)
	defer hub.Close()
	observer, collectors := excalidraw.SceneMetrics(hub)
	promReg := prometheus.NewRegistry()
	promReg.MustRegister(collectors...)
	off, on := tools.NewRegistry(nil), tools.NewRegistry(nil)
	if err := on.Instrument(promReg); err != nil {
		t.Fatal(err)
	}
	for _, reg := range []*tools.Registry{off, on} {
		for _, tl := range agenttools.Tools(svc) {
			if _, err := reg.Register(tl); err != nil {
				t.Fatal(err)
			}
		}
	}
	ctx := t.Context()
	if res := off.Call(ctx, "excalidraw_scene_create", json.RawMessage(`{"name":"b","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":60}]}`)); !res.OK {
		t.Fatalf("create: %s", res.JSON)
	}
	x, rev := 0, 1
	// run makes n writes and says how long they took and the process's
	// CPU time they cost (user and system: the fsyncs' waits excluded).
	run := func(reg *tools.Registry, obs service.Observer, n int) (time.Duration, time.Duration) {
		svc.Observe(obs)
		cpu0 := processCPU(t)
		start := time.Now()
		for range n {
			x++
			res := reg.Call(ctx, "excalidraw_scene_apply", json.RawMessage(`{"name":"b","expected_revision":`+strconv.Itoa(rev)+
				`,"operations":[{"op":"update","id":"a","patch":{"x":`+strconv.Itoa(x)+`}}]}`))
			if !res.OK {
				t.Fatalf("apply: %s", res.JSON)
			}
			rev++
		}
		return time.Since(start), processCPU(t) - cpu0
	}
	_, _ = run(off, nil, writes) // warm up the file cache and the scene's caches
	// A round is blocks of 10 writes, off and on in turn (the order
	// swapped every block), so the disk's and the machine's drift falls
	// on both alike.
	const block = 10
	var ratios, cpuRatios []float64
	var offAll, onAll, offCPU, onCPU time.Duration
	for i := range rounds {
		var a, b, aCPU, bCPU time.Duration
		for j := range max(writes/block, 1) {
			offRun := func() { w, c := run(off, nil, block); a, aCPU = a+w, aCPU+c }
			onRun := func() { w, c := run(on, observer, block); b, bCPU = b+w, bCPU+c }
			if (i+j)%2 == 0 {
				offRun()
				onRun()
			} else {
				onRun()
				offRun()
			}
		}
		offAll, onAll, offCPU, onCPU = offAll+a, onAll+b, offCPU+aCPU, onCPU+bCPU
		n := time.Duration(max(writes/block, 1) * block)
		ratios = append(ratios, float64(b)/float64(a))
		cpuRatios = append(cpuRatios, float64(bCPU)/float64(aCPU))
		t.Logf("round %d: off %v/write (CPU %v), on %v/write (CPU %v), on/off %.3f (CPU %.3f)",
			i+1, a/n, aCPU/n, b/n, bCPU/n, ratios[i], cpuRatios[i])
	}
	slices.Sort(ratios)
	slices.Sort(cpuRatios)
	t.Logf("metrics on/off over %d rounds of %d one-element writes: time min %.3f, median %.3f, max %.3f, pooled %.3f; "+
		"CPU min %.3f, median %.3f, max %.3f, pooled %.3f",
		rounds, writes, ratios[0], ratios[len(ratios)/2], ratios[len(ratios)-1], float64(onAll)/float64(offAll),
		cpuRatios[0], cpuRatios[len(cpuRatios)/2], cpuRatios[len(cpuRatios)-1], float64(onCPU)/float64(offCPU))
}

// processCPU is the CPU time the process has used, user and system.
func processCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkMetricsHooks is what the metrics add to one write on its own,
// in CPU: the tool call's count and histogram and the commit's (what
// the write's fsyncs dwarf in TestMetricsCostOnAWrite).
func BenchmarkMetricsHooks(b *testing.B) {
	hub := live.NewHub(nil)
	defer hub.Close()
	observer, collectors := excalidraw.SceneMetrics(hub)
	promReg := prometheus.NewRegistry()
	promReg.MustRegister(collectors...)
	reg := tools.NewRegistry(nil)
	if err := reg.Instrument(promReg); err != nil {
		b.Fatal(err)
	}
	if _, err := reg.Register(tools.Tool{Name: "noop", Description: "does nothing", InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) { return map[string]any{}, nil }}); err != nil {
		b.Fatal(err)
	}
	plain := tools.NewRegistry(nil)
	if _, err := plain.Register(tools.Tool{Name: "noop", Description: "does nothing", InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (any, error) { return map[string]any{}, nil }}); err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	b.Run("off", func(b *testing.B) {
		for b.Loop() {
			plain.Call(ctx, "noop", nil)
		}
	})
	b.Run("on", func(b *testing.B) {
		for b.Loop() {
			reg.Call(ctx, "noop", nil)
			observer.Committed("update", "ok", time.Millisecond)
		}
	})
}
