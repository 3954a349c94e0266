package excalidraw_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// reportLatency adds p50 and p99 (ms) to a benchmark's output.
func reportLatency(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	at := func(q float64) float64 { return float64(d[int(q*float64(len(d)-1))]) / 1e6 }
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

// BenchmarkApplyOverMCP is excalidraw_scene_apply (one update on a
// 1,000-element scene) called through MCP over loopback, and
// BenchmarkApplyStoreOnly the store's save of the same change, for the
// ratio: `go test -run '^$' -bench 'Apply(OverMCP|StoreOnly)' -benchtime 100x ./plugins/excalidraw/`
func BenchmarkApplyOverMCP(b *testing.B) {
	h, _ := mcpBenchHost(b)
	ctx := context.Background()
	sess := mcpBenchSessions(b, h, 1)[0]
	elements := make([]any, 0, 1000)
	for i := range 1000 {
		elements = append(elements, map[string]any{"type": "rectangle", "id": fmt.Sprintf("r%d", i), "x": (i % 40) * 120, "y": (i / 40) * 100, "width": 100, "height": 60})
	}
	if res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "excalidraw_scene_create", Arguments: map[string]any{"name": "bench", "elements": elements}}); err != nil || res.IsError {
		b.Fatalf("create: %v %+v", err, res)
	}
	rev := 1
	var lat []time.Duration
	for b.Loop() {
		start := time.Now()
		res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "excalidraw_scene_apply", Arguments: map[string]any{
			"name": "bench", "expected_revision": rev,
			"operations": []any{map[string]any{"op": "update", "id": "r500", "patch": map[string]any{"x": rev % 2 * 10}}},
		}})
		lat = append(lat, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("apply: %v %+v", err, res)
		}
		rev++
	}
	reportLatency(b, lat)
}

func BenchmarkApplyStoreOnly(b *testing.B) {
	// The same 1,000-element scene and the same one-field change, saved
	// straight through the store (verified save, real codec).
	dir := b.TempDir()
	h, err := dsh.New(dsh.Headless(), dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(fmt.Sprintf(
		"host: {dataDir: %s, log: {level: error}}\nplugins:\n  - {id: excalidraw, name: excalidraw}\n", dir))))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := h.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer h.Stop(ctx)
	inputs := make([]string, 0, 1000)
	for i := range 1000 {
		inputs = append(inputs, fmt.Sprintf(`{"type":"rectangle","id":"r%d","x":%d,"y":%d,"width":100,"height":60}`, i, (i%40)*120, (i/40)*100))
	}
	args := []byte(`{"name":"bench","elements":[` + strings.Join(inputs, ",") + `]}`)
	if res := h.Tools.Call(ctx, "excalidraw_scene_create", args); !res.OK {
		b.Fatalf("create: %s", res.JSON)
	}
	if res := h.Tools.Call(ctx, "excalidraw_scene_apply", []byte(`{"name":"bench","expected_revision":1,"operations":[{"op":"update","id":"r500","patch":{"x":10}}]}`)); !res.OK {
		b.Fatalf("apply: %s", res.JSON)
	}
	drawings := filepath.Join(dir, "excalidraw", "drawings")
	changed, err := os.ReadFile(filepath.Join(drawings, "bench.excalidraw"))
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(store.Options{Dir: b.TempDir(), Codec: scene.Codec{}})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Create(ctx, store.CreateRequest{Name: "bench", Data: changed, Actor: store.ActorAgent}); err != nil {
		b.Fatal(err)
	}
	rev := int64(1)
	var lat []time.Duration
	for b.Loop() {
		start := time.Now()
		res, err := st.Save(ctx, store.SaveRequest{Name: "bench", ExpectedRevision: rev, Data: changed, Actor: store.ActorAgent})
		lat = append(lat, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		rev = res.Revision
	}
	reportLatency(b, lat)
}

// BenchmarkCreate1000OverMCP is batch_create of 1,000 shapes (bench/mcp's
// create: rectangles, ellipses and diamonds with colours, no labels) on an
// empty board, in one call through MCP over loopback: what an agent waits
// for drawing a large board at once.
//
//	go test -run '^$' -bench Create1000OverMCP -benchtime 10x ./plugins/excalidraw/
func BenchmarkCreate1000OverMCP(b *testing.B) {
	h, _ := mcpBenchHost(b)
	s := mcpBenchSessions(b, h, 1)[0]
	types := []string{"rectangle", "ellipse", "diamond"}
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		name := fmt.Sprintf("c%d", i)
		elements := make([]any, 1000)
		for k := range elements {
			elements[k] = map[string]any{"id": fmt.Sprintf("c%dx%d", i, k), "type": types[k%3], "x": (k % 100) * 160, "y": k / 100 * 120,
				"width": 120, "height": 80, "strokeColor": "#1e1e1e", "backgroundColor": "#a5d8ff"}
		}
		ctx := context.Background()
		if res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "excalidraw_scene_create", Arguments: map[string]any{"name": name, "elements": []any{}}}); err != nil || res.IsError {
			b.Fatalf("create board: %v %+v", err, res)
		}
		start := time.Now()
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "batch_create", Arguments: map[string]any{"name": name, "elements": elements}})
		lat = append(lat, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("batch_create: %v %s", err, textOf(res))
		}
	}
	reportLatency(b, lat)
}
