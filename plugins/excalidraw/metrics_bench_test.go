package excalidraw_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
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
// without metrics and a service without an observer (off), then through
// an instrumented registry and the plugin's observer (on), in alternate
// rounds, each round's on/off ratio logged with min/median/max. It is a
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
	run := func(reg *tools.Registry, obs service.Observer) time.Duration {
		svc.Observe(obs)
		start := time.Now()
		for range writes {
			x++
			res := reg.Call(ctx, "excalidraw_scene_apply", json.RawMessage(`{"name":"b","expected_revision":`+strconv.Itoa(rev)+
				`,"operations":[{"op":"update","id":"a","patch":{"x":`+strconv.Itoa(x)+`}}]}`))
			if !res.OK {
				t.Fatalf("apply: %s", res.JSON)
			}
			rev++
		}
		return time.Since(start)
	}
	run(off, nil) // warm up the file cache and the scene's caches
	var ratios []float64
	for i := range rounds {
		var a, b time.Duration
		if i%2 == 0 {
			a = run(off, nil)
			b = run(on, observer)
		} else {
			b = run(on, observer)
			a = run(off, nil)
		}
		ratios = append(ratios, float64(b)/float64(a))
		t.Logf("round %d: off %v/write, on %v/write, on/off %.3f", i+1, a/time.Duration(writes), b/time.Duration(writes), ratios[i])
	}
	slices.Sort(ratios)
	t.Logf("metrics on/off over %d rounds of %d one-element writes: min %.3f, median %.3f, max %.3f",
		rounds, writes, ratios[0], ratios[len(ratios)/2], ratios[len(ratios)-1])
}
