package excalidraw_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// Agents writing one board at once over MCP without expected_revision
// (update_elements on boxes of their own, whatever the host groups into
// one commit) all land: every call answers ok with a revision of its
// own, the board holds every agent's last move, and board_log has one
// entry per write, each naming the client that made it.
func TestConcurrentAgentsOnOneBoardOverMCP(t *testing.T) {
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw}\n"))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	const agents, writes = 8, 5
	sessions := mcpBenchSessions(t, h, agents)
	var boxes []any
	for g := range agents {
		boxes = append(boxes, map[string]any{"type": "rectangle", "id": fmt.Sprintf("r%d", g), "x": g * 120, "y": 0, "width": 100, "height": 60})
	}
	okCall(t, sessions[0], "excalidraw_scene_create", string(mustJSON(t, map[string]any{"name": "shared", "elements": boxes})))
	revs := make([][]float64, agents)
	var wg sync.WaitGroup
	for g := range agents {
		wg.Go(func() {
			for n := range writes {
				out, _ := rawCall(t, sessions[g], "update_elements",
					fmt.Sprintf(`{"name":"shared","updates":[{"id":"r%d","patch":{"y":%d}}]}`, g, 10*(n+1)))
				if out["ok"] != true {
					t.Errorf("agent %d write %d: %v", g, n, out)
					return
				}
				rev, _ := out["revision"].(float64)
				revs[g] = append(revs[g], rev)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	seen := map[float64]bool{}
	for g, rs := range revs {
		for _, r := range rs {
			if seen[r] {
				t.Fatalf("revision %v answered twice (agent %d)", r, g)
			}
			seen[r] = true
		}
	}
	read := okCall(t, sessions[0], "excalidraw_scene_read", `{"name":"shared"}`)
	raw, _ := json.Marshal(read["scene"])
	var sc struct {
		Elements []struct {
			ID string  `json:"id"`
			Y  float64 `json:"y"`
		} `json:"elements"`
	}
	if err := json.Unmarshal(raw, &sc); err != nil {
		t.Fatal(err)
	}
	for _, el := range sc.Elements {
		if el.Y != 10*writes {
			t.Fatalf("box %s at y=%v, where its agent left it is %d", el.ID, el.Y, 10*writes)
		}
	}
	if read["revision"] != float64(1+agents*writes) {
		t.Fatalf("the board is at revision %v after %d writes", read["revision"], agents*writes)
	}
	log := okCall(t, sessions[0], "board_log", `{"name":"shared","limit":100}`)
	entries, _ := log["entries"].([]any)
	clients := map[string]int{}
	for _, e := range entries {
		m, _ := e.(map[string]any)
		if c, _ := m["client"].(string); c != "" {
			clients[c]++
		}
	}
	if len(entries) != 1+agents*writes {
		t.Fatalf("board_log lists %d entries, want %d", len(entries), 1+agents*writes)
	}
	clients["agent00"]-- // it made the board too
	for g := range agents {
		if c := fmt.Sprintf("agent%02d", g); clients[c] != writes {
			t.Fatalf("board_log names %s on %d entries, want %d: %v", c, clients[c], writes, clients)
		}
	}
}
