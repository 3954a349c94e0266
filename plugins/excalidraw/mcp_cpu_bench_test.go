package excalidraw_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/benchkit"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/status"
)

// cpuBenchCalls is how many calls each phase of BenchmarkMCPServerCPU
// makes: 300, or $DSH_MCP_CPU_CALLS (more, for a profile with samples enough).
var cpuBenchCalls = func() int {
	if n, err := strconv.Atoi(os.Getenv("DSH_MCP_CPU_CALLS")); err == nil && n > 0 {
		return n
	}
	return 300
}()

// BenchmarkMCPServerCPU is the server's CPU per MCP call: dsh_status (the
// cheapest tool) and excalidraw_scene_apply refused as stale
// (expected_revision one behind) on a 1,000-element board, each called
// cpuBenchCalls times in one session over loopback HTTP; and, as the
// floor both stand on, a tool that does nothing on the bare SDK server
// (no host, no admission, no event store: mcp.NewStreamableHTTPHandler
// with its defaults on an httptest server), called as often in one
// session of its own. status/sdk is what the host adds to the SDK's own
// cost of a call.
//
// The client (the official SDK's) runs in a child process, this test
// binary run again as its client (mcpCPUClient), so the CPU this process uses
// while the child calls (benchkit.CPUTime before and after, every
// goroutine) is the server's alone: HTTP, admission, session, schema,
// handler, encoding, GC. The two phases run in the same host and
// session, so their ratio is a same-run figure. A -cpuprofile of this
// benchmark profiles the server only, setup included; with
// DSH_MCP_CPU_PROFILE=/tmp/p set, each phase alone is profiled to
// /tmp/p-status.prof and /tmp/p-stale.prof (the go test flag
// -cpuprofile must then be off):
//
//	go test -run '^$' -bench MCPServerCPU -benchtime 1x ./plugins/excalidraw/
func BenchmarkMCPServerCPU(b *testing.B) {
	h := hosttest.New(b, dsh.WithPlugins(excalidraw.Plugin, status.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(b, "  - {id: excalidraw, name: excalidraw}\n  - {id: status, name: status}\n"))))
	if err := hosttest.Scope(b, h, "excalidraw").AwaitActive(hosttest.Context(b)); err != nil {
		b.Fatal(err)
	}
	bare := bareSDKServer(b)
	for b.Loop() {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "DSH_MCP_CPU_CLIENT="+h.URL()+" "+h.Token()+" "+bare)
		cmd.Stderr = os.Stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			b.Fatal(err)
		}
		outPipe, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		out := bufio.NewScanner(outPipe)
		// await reads the child's lines up to the one starting with want.
		await := func(want string) {
			for out.Scan() {
				if strings.HasPrefix(out.Text(), want) {
					return
				}
			}
			_ = cmd.Wait()
			b.Fatalf("client ended before %q", want)
		}
		await("ready")
		var cpu [4]time.Duration
		var alloc [4]uint64
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		cpu[0], alloc[0] = benchkit.CPUTime(), ms.TotalAlloc
		for i, phase := range []string{"status", "stale", "sdk"} {
			stop := phaseProfile(b, phase)
			fmt.Fprintln(in, phase)
			await("done")
			runtime.ReadMemStats(&ms)
			cpu[i+1], alloc[i+1] = benchkit.CPUTime(), ms.TotalAlloc
			stop()
		}
		in.Close()
		if err := cmd.Wait(); err != nil {
			b.Fatalf("client: %v", err)
		}
		statusUS := float64(cpu[1]-cpu[0]) / 1e3 / float64(cpuBenchCalls)
		staleUS := float64(cpu[2]-cpu[1]) / 1e3 / float64(cpuBenchCalls)
		sdkUS := float64(cpu[3]-cpu[2]) / 1e3 / float64(cpuBenchCalls)
		b.ReportMetric(statusUS, "status-server-us/call")
		b.ReportMetric(sdkUS, "sdk-server-us/call")
		b.ReportMetric(statusUS/sdkUS, "status/sdk")
		b.ReportMetric(staleUS, "stale-server-us/call")
		b.ReportMetric(staleUS/statusUS, "stale/status")
		b.ReportMetric(float64(alloc[1]-alloc[0])/float64(cpuBenchCalls), "status-server-B/call")
		b.ReportMetric(float64(alloc[2]-alloc[1])/float64(cpuBenchCalls), "stale-server-B/call")
	}
}

// bareSDKServer serves the SDK's Streamable HTTP handler, with its
// default options, for one tool ("nothing", no input, an empty result),
// on loopback, and returns its URL: BenchmarkMCPServerCPU's floor.
func bareSDKServer(b *testing.B) string {
	s := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "nothing"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, struct{}, error) {
		return nil, struct{}{}, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	b.Cleanup(srv.Close)
	return srv.URL
}

// phaseProfile starts a CPU profile of one phase, written to
// $DSH_MCP_CPU_PROFILE-phase.prof when that is set, with the allocation
// profiles at its start and end (-phase-allocs0.prof, -allocs1.prof: the
// second with -base the first is the phase's), and returns its stop.
func phaseProfile(b *testing.B, phase string) (stop func()) {
	prefix := os.Getenv("DSH_MCP_CPU_PROFILE")
	if prefix == "" {
		return func() {}
	}
	f, err := os.Create(prefix + "-" + phase + ".prof")
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	heap := func(name string) {
		runtime.GC()
		h, err := os.Create(prefix + "-" + phase + "-" + name + ".prof")
		if err != nil {
			b.Fatal(err)
		}
		defer h.Close()
		if err := pprof.Lookup("allocs").WriteTo(h, 0); err != nil {
			b.Fatal(err)
		}
	}
	heap("allocs0")
	return func() { pprof.StopCPUProfile(); f.Close(); heap("allocs1") }
}

// mcpCPUClient is BenchmarkMCPServerCPU's client, the test binary run
// again with DSH_MCP_CPU_CLIENT ("URL token bareURL"; TestMain runs it instead of
// the tests): it makes a 1,000-element board, says "ready", and for each
// line "status" or "stale" on stdin makes cpuBenchCalls such calls and
// says "done". It ends the process; a failure exits 1 with why.
func mcpCPUClient(env string) {
	fatalf := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "mcp cpu client: "+format+"\n", args...)
		os.Exit(1)
	}
	url, token, bareURL := "", "", ""
	if f := strings.Fields(env); len(f) == 3 {
		url, token, bareURL = f[0], f[1], f[2]
	} else {
		fatalf("want DSH_MCP_CPU_CLIENT=\"URL token bareURL\", got %q", env)
	}
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "cpu-bench", Version: "1"}, nil)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	sess, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: dshtest.Bearer{Token: token, Base: tr}}}, nil)
	if err != nil {
		fatalf("%v", err)
	}
	elements := make([]any, 0, 1000)
	for i := range 1000 {
		elements = append(elements, map[string]any{"type": "rectangle", "id": fmt.Sprintf("r%d", i), "x": (i % 40) * 120, "y": (i / 40) * 100, "width": 100, "height": 60})
	}
	call := func(name string, args map[string]any) *mcp.CallToolResult {
		res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			fatalf("%s: %v", name, err)
		}
		return res
	}
	if res := call("excalidraw_scene_create", map[string]any{"name": "cpu", "elements": elements}); res.IsError {
		fatalf("create: %+v", res)
	}
	// An apply that lands takes the board to revision 2; the stale ones
	// still expect 1, and carry an update and a new element.
	apply := func(rev int) map[string]any {
		return map[string]any{"name": "cpu", "expected_revision": rev, "operations": []any{
			map[string]any{"op": "update", "id": "r500", "patch": map[string]any{"x": 10}},
			map[string]any{"op": "add", "element": map[string]any{"type": "ellipse", "id": "e1", "x": 0, "y": 0, "width": 50, "height": 50}},
		}}
	}
	if res := call("excalidraw_scene_apply", apply(1)); res.IsError {
		fatalf("apply: %+v", res)
	}
	stale := apply(1)
	if res := call("excalidraw_scene_apply", stale); !res.IsError || !strings.Contains(textOf(res), "revision_conflict") {
		fatalf("stale apply: want revision_conflict, got %s", textOf(res))
	}
	// Warm both paths before the measured phases.
	for range 20 {
		call("dsh_status", map[string]any{})
		call("excalidraw_scene_apply", stale)
	}
	bareSess, err := mcp.NewClient(&mcp.Implementation{Name: "cpu-bench-bare", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: bareURL, HTTPClient: &http.Client{Transport: tr}}, nil)
	if err != nil {
		fatalf("bare: %v", err)
	}
	for range 20 {
		if _, err := bareSess.CallTool(ctx, &mcp.CallToolParams{Name: "nothing", Arguments: map[string]any{}}); err != nil {
			fatalf("bare: %v", err)
		}
	}
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		switch in.Text() {
		case "status":
			for range cpuBenchCalls {
				if res := call("dsh_status", map[string]any{}); res.IsError {
					fatalf("status: %s", textOf(res))
				}
			}
		case "stale":
			for range cpuBenchCalls {
				if res := call("excalidraw_scene_apply", stale); !res.IsError {
					fatalf("a stale apply landed")
				}
			}
		case "sdk":
			for range cpuBenchCalls {
				if res, err := bareSess.CallTool(ctx, &mcp.CallToolParams{Name: "nothing", Arguments: map[string]any{}}); err != nil || res.IsError {
					fatalf("bare call: %v", err)
				}
			}
		}
		fmt.Println("done")
	}
	sess.Close()
	bareSess.Close()
	os.Exit(0)
}

// textOf is the text of a tool result's first content.
func textOf(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}
