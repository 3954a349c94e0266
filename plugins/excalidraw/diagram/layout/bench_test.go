package layout

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"time"

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

// What a process pays before its layouts cost what BenchmarkLayout says.
// Importing go-graphviz compiles and instantiates its WebAssembly module
// in the package's init, with wazero's compilation cache in
// $TMPDIR/go-graphviz: cold has an empty cache each time (a new machine),
// warm the cache of the runs before. The first Layout then starts the
// graphviz context (once: go-graphviz fails to make another after a
// render, so there is one for the process). Each op runs this test
// binary to lay out the architecture diagram twice and exit:
// wasm-init-ms is the init as GODEBUG=inittrace reports it,
// first-layout-ms and second-layout-ms the two layouts, process-ms the
// whole run.
func BenchmarkProcessStart(b *testing.B) {
	warm := b.TempDir()
	for _, tc := range []struct {
		name string
		tmp  func() string
	}{
		{"cold", func() string { return b.TempDir() }},
		{"warm", func() string { return warm }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if tc.name == "warm" {
				startHelper(b, warm) // fill the cache
			}
			var sum [3]float64
			start := time.Now()
			for i := 0; i < b.N; i++ {
				for k, v := range startHelper(b, tc.tmp()) {
					sum[k] += v
				}
			}
			n := float64(b.N)
			b.ReportMetric(sum[0]/n, "wasm-init-ms")
			b.ReportMetric(sum[1]/n, "first-layout-ms")
			b.ReportMetric(sum[2]/n, "second-layout-ms")
			b.ReportMetric(float64(time.Since(start).Milliseconds())/n, "process-ms")
		})
	}
}

var (
	wasmInit   = regexp.MustCompile(`init github\.com/goccy/go-graphviz/internal/wasm @[^,]*, ([0-9.]+) ms clock`)
	layoutTime = regexp.MustCompile(`layouts: ([0-9.]+) ms, ([0-9.]+) ms`)
)

// startHelper runs TestHelperProcess in a new process with tmp as its
// TMPDIR and returns its WebAssembly init time and its two layouts' in ms.
func startHelper(b *testing.B, tmp string) [3]float64 {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "LAYOUT_HELPER_PROCESS=1", "TMPDIR="+tmp, "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	m, l := wasmInit.FindSubmatch(out), layoutTime.FindSubmatch(out)
	if m == nil || l == nil {
		b.Fatalf("no init trace for the wasm module or no layout times in: %.2000s", out)
	}
	var ms [3]float64
	for k, v := range [][]byte{m[1], l[1], l[2]} {
		ms[k], _ = strconv.ParseFloat(string(v), 64)
	}
	return ms
}

// TestHelperProcess is BenchmarkProcessStart's process: two layouts.
func TestHelperProcess(t *testing.T) {
	if os.Getenv("LAYOUT_HELPER_PROCESS") != "1" {
		t.Skip("run by BenchmarkProcessStart")
	}
	var ms [2]float64
	for k := range ms {
		start := time.Now()
		lay(t, architecture(), labelled())
		ms[k] = float64(time.Since(start).Microseconds()) / 1000
	}
	t.Logf("layouts: %g ms, %g ms", ms[0], ms[1])
}
