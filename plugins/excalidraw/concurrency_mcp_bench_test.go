package excalidraw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/testkit/benchkit"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// The concurrency goals of issue 30 over MCP, each a ratio against a
// baseline measured in the same benchmark in alternating rounds (a
// machine that slows down or speeds up moves both sides alike):
//
//	go test -run '^$' -bench 'OverMCPConcurrent' -benchtime 5x ./plugins/excalidraw/
//
// The clients are the official SDK's, one session each, in this process
// over loopback HTTP, as agents beside a host on one machine would be.

// mcpBenchHost is a real host serving MCP on loopback with boards of
// 1,000 boxes named as given, and its data directory.
func mcpBenchHost(b *testing.B, boards ...string) (*dsh.Host, string) {
	b.Helper()
	dir := b.TempDir()
	h, err := dsh.New(dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(fmt.Sprintf(
		"host: {listen: 127.0.0.1:0, dataDir: %s, log: {level: error, format: json}}\nplugins:\n  - {id: excalidraw, name: excalidraw}\n", dir))))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if err := h.Start(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = h.Stop(ctx) })
	inputs := make([]string, 0, 1000)
	for i := range 1000 {
		inputs = append(inputs, fmt.Sprintf(`{"type":"rectangle","id":"r%d","x":%d,"y":%d,"width":100,"height":60}`, i, (i%40)*120, (i/40)*100))
	}
	for _, name := range boards {
		args := []byte(`{"name":"` + name + `","elements":[` + strings.Join(inputs, ",") + `]}`)
		if res := h.Tools.Call(ctx, "excalidraw_scene_create", args); !res.OK {
			b.Fatalf("create %s: %s", name, res.JSON)
		}
	}
	return h, dir
}

// mcpBenchSessions are n SDK client sessions on h (clients agent00,
// agent01, ...), closed at the end.
func mcpBenchSessions(b testing.TB, h *dsh.Host, n int) []*mcp.ClientSession {
	b.Helper()
	tr := &http.Transport{MaxIdleConnsPerHost: n}
	b.Cleanup(tr.CloseIdleConnections)
	sessions := make([]*mcp.ClientSession, n)
	for i := range sessions {
		c := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("agent%02d", i), Version: "1"}, nil)
		s, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: h.URL() + "/mcp",
			HTTPClient: &http.Client{Transport: dshtest.Bearer{Token: h.Token(), Base: tr}}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = s.Close() })
		sessions[i] = s
	}
	return sessions
}

// moveBox is update_elements moving box id on board to x, expecting
// revision rev (none when rev is 0). It answers the board's revision after
// the call and whether the write landed; a revision conflict is not an
// error (its current revision is answered), anything else is.
func moveBox(s *mcp.ClientSession, board, id string, x int, rev int64) (int64, bool, error) {
	args := map[string]any{"name": board, "updates": []any{
		map[string]any{"id": id, "patch": map[string]any{"x": x}}}}
	if rev > 0 {
		args["expected_revision"] = rev
	}
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "update_elements", Arguments: args})
	if err != nil {
		return 0, false, err
	}
	var out struct {
		Revision int64 `json:"revision"`
		Error    struct {
			Code    string `json:"code"`
			Details struct {
				Current int64 `json:"currentRevision"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(textOf(res)), &out); err != nil {
		return 0, false, fmt.Errorf("apply: %v in %s", err, textOf(res))
	}
	switch {
	case !res.IsError:
		return out.Revision, true, nil
	case out.Error.Code == "revision_conflict":
		return out.Error.Details.Current, false, nil
	}
	return 0, false, fmt.Errorf("apply: %s", textOf(res))
}

// BenchmarkOverMCPConcurrentWriters is 16 agents, each writing a one-box
// change to its own board of 1,000 boxes through MCP (expecting its
// board's revision), against the disk doing the durable write floor of
// the same bytes on 16 files of the same directory at once. Reported:
// disk-writes/s, mcp-writes/s, mcp/disk (goal ≥ 0.5) and cpu-ms/write
// (this process's CPU, the clients' and the host's, per MCP write).
func BenchmarkOverMCPConcurrentWriters(b *testing.B) {
	const writers, perRound = 16, 4
	names := make([]string, writers)
	for i := range names {
		names[i] = fmt.Sprintf("w%02d", i)
	}
	h, dataDir := mcpBenchHost(b, names...)
	sessions := mcpBenchSessions(b, h, writers)
	revs := make([]int64, writers)
	for i := range revs {
		rev, ok, err := moveBox(sessions[i], names[i], "r500", 1, 1)
		if err != nil || !ok {
			b.Fatalf("first write: %v", err)
		}
		revs[i] = rev
	}
	drawings := filepath.Join(dataDir, "excalidraw", "drawings")
	data, err := os.ReadFile(filepath.Join(drawings, "w00.excalidraw"))
	if err != nil {
		b.Fatal(err)
	}
	floorDir := b.TempDir()
	d, err := os.Open(floorDir)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	var diskTime, mcpTime, mcpCPU time.Duration
	var n int
	b.ResetTimer()
	for r := 0; b.Loop(); r++ {
		diskTime += benchkit.Floor(b, d, floorDir, writers, perRound, data)
		cpu := benchkit.CPUTime()
		mcpTime += benchkit.Together(b, writers, func(g int) error {
			for i := range perRound {
				rev, ok, err := moveBox(sessions[g], names[g], "r500", r*perRound+i+2, revs[g])
				if err != nil {
					return err
				}
				if !ok {
					return fmt.Errorf("%s: a lone writer's write was refused as stale", names[g])
				}
				revs[g] = rev
			}
			return nil
		})
		mcpCPU += benchkit.CPUTime() - cpu
		n += writers * perRound
	}
	b.StopTimer()
	disk, viaMCP := float64(n)/diskTime.Seconds(), float64(n)/mcpTime.Seconds()
	b.ReportMetric(float64(mcpCPU.Microseconds())/1000/float64(n), "cpu-ms/write")
	b.ReportMetric(disk, "disk-writes/s")
	b.ReportMetric(viaMCP, "mcp-writes/s")
	b.ReportMetric(viaMCP/disk, "mcp/disk")
}

// BenchmarkOverMCPConcurrentOneBoard is 64 agents on one board of 1,000
// boxes through MCP, each moving a box of its own in a loop, against one
// agent alone doing the same. Each round runs until the agents together
// have made as many successful writes as the lone agent made in its half
// of the round. Two ways of writing:
//
//   - expected: each write expects the revision the agent last saw; on a
//     conflict it takes the board's current revision from the refusal
//     and tries again (a conflict costs a round trip, never a read);
//   - unfenced: no expected_revision, so writes to different boxes never
//     conflict and the host may store them together.
//
// Reported per way: alone-writes/s, shared-writes/s (successful writes
// of all agents together), shared/alone (goal ≥ 0.8) and
// conflicts/success.
func BenchmarkOverMCPConcurrentOneBoard(b *testing.B) {
	for _, fenced := range []bool{true, false} {
		name := map[bool]string{true: "expected", false: "unfenced"}[fenced]
		b.Run(name, func(b *testing.B) {
			const agents, successes = 64, 32
			h, _ := mcpBenchHost(b, "shared")
			sessions := mcpBenchSessions(b, h, agents)
			var x, head atomic.Int64
			head.Store(1)
			agent := func(g int, want int64, won, lost *atomic.Int64) error {
				rev := head.Load()
				for won.Load() < want {
					seen := int64(0)
					if fenced {
						seen = rev
					}
					// Within its own cell of the grid (boxes are 100
					// wide, 120 apart): the agents' boxes never overlap.
					got, ok, err := moveBox(sessions[g], "shared", fmt.Sprintf("r%d", g), (g%40)*120+int(x.Add(1)%10), seen)
					if err != nil {
						return err
					}
					rev = got
					if ok {
						won.Add(1)
						continue
					}
					lost.Add(1)
				}
				for {
					h := head.Load()
					if rev <= h || head.CompareAndSwap(h, rev) {
						return nil
					}
				}
			}
			benchkit.AloneVsShared(b, agents, successes, agent, nil)
		})
	}
}
