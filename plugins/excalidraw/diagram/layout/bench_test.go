package layout

import (
	"context"
	"runtime"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// benchLayout lays g out b.N times and reports, besides the time, what
// each layout leaves on the heap for good (go-graphviz's WebAssembly
// memory only grows, and dot leaks in it, most with clusters).
func benchLayout(b *testing.B, en layoutEngine, g *diagram.Graph) {
	ctx := context.Background()
	if _, err := en.run(ctx, g, size, labelled()); err != nil { // warm: engine started, memory grown
		b.Fatal(err)
	}
	before := heap()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := en.run(ctx, g, size, labelled()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(heap()-before)/float64(b.N)/1024, "retained-KB/op")
}

func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkLayout runs each graph through both engines in one run
// (sub-benchmarks graph/engine), so their times compare directly.
func BenchmarkLayout(b *testing.B) {
	for _, tc := range []struct {
		name string
		g    func() *diagram.Graph
	}{
		{"architecture-15", architecture},
		{"system-30", system},
		{"nodes-100-edges-150", func() *diagram.Graph { return random(100, 150, 1, false) }},
		{"nodes-100-edges-150-groups-10", func() *diagram.Graph { return random(100, 150, 1, true) }},
		{"nodes-1000-edges-1500", func() *diagram.Graph { return random(1000, 1500, 1, false) }},
		{"nodes-1000-edges-1500-groups-100", func() *diagram.Graph { return random(1000, 1500, 1, true) }},
	} {
		g := tc.g()
		for _, en := range engines {
			b.Run(tc.name+"/"+en.name, func(b *testing.B) { benchLayout(b, en, g) })
		}
	}
}
