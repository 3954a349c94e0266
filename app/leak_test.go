package app

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// cyclePlugin exercises every kind of effect: a service, a goroutine, a
// child scope and a dependant of the service.
var cyclePlugin = Plugin{Name: "cycle", Apply: func(ctx *Context, _ Config) error {
	if err := ctx.Provide("cycled", struct{}{}); err != nil {
		return err
	}
	if err := ctx.Go("tick", func(c context.Context) { <-c.Done() }); err != nil {
		return err
	}
	_, err := ctx.Inject([]Dep{Need("cycled")}, func(c *Context) error {
		_, err := c.Effect("noop", func(context.Context) error { return nil })
		return err
	})
	return err
}}

func loadUnload(tb testing.TB, rt *Runtime) {
	s, err := rt.Root().Plugin(cyclePlugin, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if s.State() != StateActive {
		tb.Fatalf("state %s", s.State())
	}
	if err := s.Dispose(context.Background()); err != nil {
		tb.Fatal(err)
	}
}

func heapInUse() uint64 {
	var m runtime.MemStats
	for range 2 {
		runtime.GC()
	}
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestLoadUnloadLeavesNothing runs 10,000 load/unload cycles and checks
// that goroutines, scopes, effects, service slots and heap return to
// their baseline.
func TestLoadUnloadLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("long leak check")
	}
	rt := New(Options{})
	defer rt.Dispose(context.Background())
	loadUnload(t, rt) // warm up lazily allocated structures
	g0, h0 := runtime.NumGoroutine(), heapInUse()
	const cycles = 10_000
	for range cycles {
		loadUnload(t, rt)
	}
	// A goroutine that has signalled it is done may still be on its way
	// out; give the count a moment to settle, as goleak does.
	g1 := runtime.NumGoroutine()
	for deadline := time.Now().Add(5 * time.Second); g1 > g0 && time.Now().Before(deadline); g1 = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	h1 := heapInUse()
	t.Logf("after %d cycles: goroutines %d -> %d, heap in use %d KiB -> %d KiB (%+d KiB)",
		cycles, g0, g1, h0>>10, h1>>10, (int64(h1)-int64(h0))>>10)
	if g1 > g0 {
		t.Errorf("goroutines grew from %d to %d", g0, g1)
	}
	if h1 > h0+1<<20 {
		t.Errorf("heap grew by %d KiB over %d cycles", (h1-h0)>>10, cycles)
	}
	if n := len(rt.Scopes()); n != 1 {
		t.Errorf("%d scopes left", n)
	}
	if n := len(rt.root.Effects()); n != 0 {
		t.Errorf("root kept %d effects", n)
	}
	rt.svcMu.RLock()
	slots, deps := len(rt.slots), len(rt.dependants)
	rt.svcMu.RUnlock()
	if slots != 0 || deps != 0 {
		t.Errorf("service table kept %d slots and %d dependant sets", slots, deps)
	}
}

// BenchmarkLoadUnload measures one load and dispose of a plugin with a
// service, a goroutine and a dependant child. The baseline beside it is
// a bare goroutine start and stop, the cheapest thing a plugin can do.
func BenchmarkLoadUnload(b *testing.B) {
	rt := New(Options{})
	defer rt.Dispose(context.Background())
	b.ReportAllocs()
	for b.Loop() {
		loadUnload(b, rt)
	}
}

func BenchmarkBaselineGoroutineStartStop(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { <-ctx.Done(); close(done) }()
		cancel()
		<-done
	}
}
