package roomcheck_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/benchkit"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/room/roomcheck"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type host struct {
	t   testing.TB
	h   *dsh.Host
	mcp *mcp.ClientSession
	c   *http.Client

	minted int
}

func startHost(t testing.TB) *host {
	t.Helper()
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw}\n"))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	s, _, _ := hosttest.MCP(t, h)
	return &host{t: t, h: h, mcp: s, c: hosttest.Client(t)}
}

func (h *host) call(tool, args string) map[string]any {
	h.t.Helper()
	res, err := h.mcp.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil || res.IsError {
		h.t.Fatalf("%s: %v %v", tool, err, res)
	}
	var out map[string]any
	_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out)
	return out
}

func (h *host) send(method, path, body string, token string) (int, map[string]any) {
	h.t.Helper()
	resp, b := dshtest.Send(h.t, h.c, method, h.h.URL()+path, body, "Authorization", "Bearer "+token, "Content-Type", "application/json")
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

// board reads a board's elements by id through the API.
func (h *host) board(name string) map[string]map[string]any {
	h.t.Helper()
	st, out := h.send(http.MethodGet, "/dsh-excalidraw/api/scenes/"+name, "", h.h.Token())
	if st != 200 {
		h.t.Fatalf("read %s: %d %v", name, st, out)
	}
	els := map[string]map[string]any{}
	scene, _ := out["scene"].(map[string]any)
	list, _ := scene["elements"].([]any)
	for _, e := range list {
		m, _ := e.(map[string]any)
		els[m["id"].(string)] = m
	}
	return els
}

// token mints a connect token for boards with a role.
func (h *host) token(role string, boards ...string) string {
	h.t.Helper()
	tok, _ := h.tokenWithID(role, boards...)
	return tok
}

// tokenWithID is token with the token's id (to revoke it).
func (h *host) tokenWithID(role string, boards ...string) (string, string) {
	h.t.Helper()
	h.minted++
	b, _ := json.Marshal(map[string]any{"name": fmt.Sprintf("%s-bot-%d", role, h.minted), "boards": boards, "role": role})
	st, out := h.send(http.MethodPost, "/dsh-excalidraw/api/mcp/tokens", string(b), h.h.Token())
	if st != 201 && st != 200 {
		h.t.Fatalf("mint: %d %v", st, out)
	}
	id, _ := out["id"].(string)
	if rec, ok := out["record"].(map[string]any); ok && id == "" {
		id, _ = rec["id"].(string)
	}
	return out["token"].(string), id
}

// TestStockClientsShareABoard drives two room clients written from
// Excalidraw's protocol (not dsh's page) through a board's room: each gets
// the board on joining, sees the other come in, sees the other's strokes
// at once and its pointer named by dsh; what they draw is committed to
// the board, named after who drew it; an agent's commit reaches both,
// with the agent shown where it worked; following works; a message not
// sealed with the room's key is dropped; a viewer's strokes are dropped
// and saved nowhere; a token for another board cannot join; and what a
// client sent just before it left is saved.
func TestStockClientsShareABoard(t *testing.T) {
	roomcheck.NeedNode(t)
	h := startHost(t)
	h.call("excalidraw_scene_create", `{"name":"plan","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":50}]}`)
	st, info := h.send(http.MethodGet, "/dsh-excalidraw/api/scenes/plan/room", "", h.h.Token())
	if st != 200 {
		t.Fatalf("room: %d %v", st, info)
	}
	link := info["link"].(string)

	ann := roomcheck.Join(t, "ann", h.h.URL(), link, h.h.Token())
	ann.Await("room-user-change", func(e roomcheck.Event) bool { return e.Ev == "room-user-change" })
	ann.Message("SCENE_INIT", roomcheck.HasElement("a"))
	room := ann.Await("dsh-room", func(e roomcheck.Event) bool { return e.Ev == "dsh-room" })
	if room.Body["board"] != "plan" || room.Body["role"] != "owner" {
		t.Fatalf("dsh-room %v", room.Body)
	}

	editor := h.token("editor", "plan")
	bob := roomcheck.Join(t, "bob", h.h.URL(), link, editor)
	bob.Message("SCENE_INIT", roomcheck.HasElement("a"))
	ann.Await("bob in the room", func(e roomcheck.Event) bool { return e.Ev == "room-user-change" && len(e.IDs) == 2 })

	// ann draws: bob sees it at once, and it is committed, named.
	ann.Do(map[string]any{"do": "update", "elements": []any{roomcheck.Rect("n1", "aV", 300, 5)}})
	bob.Message("SCENE_UPDATE", roomcheck.HasElement("n1"))
	saved := ann.Await("dsh-saved", func(e roomcheck.Event) bool { return e.Ev == "dsh-saved" })
	if els, _ := saved.Body["elements"].(map[string]any); els["n1"] != 5.0 || saved.Body["revision"].(float64) < 2 || len(fmt.Sprint(saved.Body["sha256"])) != 64 {
		t.Fatalf("dsh-saved %v", saved.Body)
	}
	if el := h.board("plan")["n1"]; el == nil || el["version"] != 5.0 || el["x"] != 300.0 {
		t.Fatalf("n1 on the board: %v", el)
	}
	log := h.call("board_log", `{"name":"plan","limit":1}`)
	if b, _ := json.Marshal(log); !strings.Contains(string(b), `"room"`) {
		t.Fatalf("the commit is not the room's: %s", b)
	}

	// ann's pointer reaches bob under ann's socket and dsh's name for her.
	ann.Do(map[string]any{"do": "pointer", "x": 10, "y": 20, "username": "pretend"})
	p := bob.Message("MOUSE_LOCATION", func(p map[string]any) bool { return p["socketId"] == ann.ID })
	if p["username"] == "pretend" || p["username"] == "" {
		t.Fatalf("pointer named %v, not by dsh", p["username"])
	}

	// An agent's commit reaches both, and the agent shows where it worked.
	h.call("batch_create", `{"name":"plan","elements":[{"type":"ellipse","id":"g1","x":600,"y":0,"width":80,"height":80}]}`)
	for _, c := range []*roomcheck.Client{ann, bob} {
		c.Message("SCENE_UPDATE", roomcheck.HasElement("g1"))
		ag := c.Message("MOUSE_LOCATION", func(p map[string]any) bool { return strings.HasPrefix(fmt.Sprint(p["socketId"]), "agent-") })
		if sel, _ := ag["selectedElementIds"].(map[string]any); sel["g1"] != true {
			t.Fatalf("the agent's selection %v", ag)
		}
	}

	// A bot's commit names the bot and the person it acts for.
	botToken := h.token("editor", "plan")
	bot := hosttest.MCPWithToken(t, h.h, botToken)
	if res, err := bot.CallTool(context.Background(), &mcp.CallToolParams{Name: "batch_create",
		Arguments: json.RawMessage(`{"name":"plan","elements":[{"type":"diamond","id":"d1","x":800,"y":0,"width":80,"height":80}]}`)}); err != nil || res.IsError {
		t.Fatalf("bot write: %v %v", err, res)
	}
	ag := ann.Message("MOUSE_LOCATION", func(p map[string]any) bool {
		sel, _ := p["selectedElementIds"].(map[string]any)
		return sel["d1"] == true
	})
	if name := fmt.Sprint(ag["username"]); !strings.HasPrefix(name, "editor-bot-") || !strings.Contains(name, "(for ") {
		t.Fatalf("the bot shows as %q", name)
	}

	// bob follows ann: ann hears it, and ann's viewport reaches bob.
	bob.Do(map[string]any{"do": "follow", "socketId": ann.ID})
	ann.Await("followers", func(e roomcheck.Event) bool {
		return e.Ev == "user-follow-room-change" && len(e.IDs) == 1 && e.IDs[0] == bob.ID
	})
	ann.Do(map[string]any{"do": "bounds", "bounds": []any{0, 0, 800, 600}})
	bob.Message("USER_VISIBLE_SCENE_BOUNDS", func(p map[string]any) bool { return p["socketId"] == ann.ID })

	// A message sealed with another key is dropped.
	ann.Do(map[string]any{"do": "rekey", "key": "AAAAAAAAAAAAAAAAAAAAAA"})
	ann.Do(map[string]any{"do": "update", "elements": []any{roomcheck.Rect("bad", "aW", 500, 2)}})
	ann.Do(map[string]any{"do": "rekey", "key": strings.SplitN(link, ",", 2)[1]})
	ann.Do(map[string]any{"do": "update", "elements": []any{roomcheck.Rect("good", "aX", 700, 2)}})
	got := bob.Message("SCENE_UPDATE", func(p map[string]any) bool { return roomcheck.HasElement("good")(p) || roomcheck.HasElement("bad")(p) })
	if roomcheck.HasElement("bad")(got) {
		t.Fatal("a message sealed with another key was relayed")
	}

	// A viewer sees the board; what it draws goes nowhere.
	viewer := h.token("viewer", "plan")
	vic := roomcheck.Join(t, "vic", h.h.URL(), link, viewer)
	vic.Message("SCENE_INIT", roomcheck.HasElement("n1"))
	vic.Do(map[string]any{"do": "update", "elements": []any{roomcheck.Rect("v1", "aY", 900, 2)}})
	if e := vic.Await("dsh-error", func(e roomcheck.Event) bool { return e.Ev == "dsh-error" }); e.Body["code"] != "permission_denied" || e.Body["status"] != 403.0 {
		t.Fatalf("viewer's write: %v", e.Body)
	}

	// A token for another board cannot join this one.
	h.call("excalidraw_scene_create", `{"name":"other"}`)
	stranger := roomcheck.Join(t, "stranger", h.h.URL(), link, h.token("editor", "other"))
	if e := stranger.Await("refusal", func(e roomcheck.Event) bool { return e.Ev == "dsh-error" }); e.Body["code"] != "not_found" {
		t.Fatalf("stranger: %v", e.Body)
	}
	stranger.Await("disconnect", func(e roomcheck.Event) bool { return e.Ev == "disconnect" })

	// bob draws and leaves at once: what he sent is saved.
	bob.Do(map[string]any{"do": "update", "elements": []any{roomcheck.Rect("last", "aZ", 1100, 3)}})
	bob.Do(map[string]any{"do": "close"})
	hosttest.Eventually(t, "bob's last stroke on the board", func() bool { return h.board("plan")["last"] != nil })
	els := h.board("plan")
	for _, id := range []string{"bad", "v1"} {
		if els[id] != nil {
			t.Fatalf("%s reached the board", id)
		}
	}
	if els["good"] == nil {
		t.Fatal("good is not on the board")
	}
}

// BenchmarkRoomLoad is people drawing together (load.mjs: each moves its
// pointer at 30 Hz and draws a stroke a second at 30 updates a second)
// while agents commit to the same board, for the figures of how fast a
// stroke and a pointer reach the others: first 2 people alone (the
// baseline), then DSH_ROOM_PEOPLE (default 20) with DSH_ROOM_AGENTS
// (default 5) agents each writing every DSH_ROOM_AGENT_MS (default
// 1000 ms), for DSH_ROOM_SECONDS (default 60 s). It reports stroke and
// pointer p50/p99 in ms, the ratio of the loaded stroke p50 to the
// baseline's, the agents' write p50 and the CPU the host used (cores:
// CPU seconds of this process, which is the host and the agents' MCP
// clients, per second). It fails unless every client ends holding the
// elements the stored board holds, at the same versions: nothing lost,
// everyone converged. Run with -benchtime=1x.
func BenchmarkRoomLoad(b *testing.B) {
	roomcheck.NeedNode(b)
	env := func(k string, d int) int {
		if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
			return v
		}
		return d
	}
	people, agents, every, secs := env("DSH_ROOM_PEOPLE", 20), env("DSH_ROOM_AGENTS", 5), env("DSH_ROOM_AGENT_MS", 1000), env("DSH_ROOM_SECONDS", 60)
	for range b.N {
		h := startHost(b)
		run := func(name string, n int, withAgents bool) map[string]any {
			h.call("excalidraw_scene_create", `{"name":"`+name+`"}`)
			_, info := h.send(http.MethodGet, "/dsh-excalidraw/api/scenes/"+name+"/room", "", h.h.Token())
			var wg sync.WaitGroup
			var mu sync.Mutex
			var writes []time.Duration
			end := time.Now().Add(time.Duration(secs) * time.Second)
			if withAgents {
				for a := range agents {
					s := hosttest.MCPWithToken(b, h.h, h.token("editor", name))
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := 0; time.Now().Add(time.Duration(every) * time.Millisecond).Before(end); i++ {
							time.Sleep(time.Duration(every) * time.Millisecond)
							args := fmt.Sprintf(`{"name":%q,"elements":[{"type":"rectangle","x":%d,"y":%d,"width":60,"height":40}],"options":{"lint":"off"}}`, name, 2000+a*100, i*50)
							start := time.Now()
							res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "batch_create", Arguments: json.RawMessage(args)})
							if err == nil && !res.IsError {
								mu.Lock()
								writes = append(writes, time.Since(start))
								mu.Unlock()
							}
						}
					}()
				}
			}
			cpu0, wall0 := benchkit.CPUTime(), time.Now()
			cmd := exec.Command("node", "load.mjs", h.h.URL(), info["link"].(string), h.h.Token(), strconv.Itoa(n), strconv.Itoa(secs))
			cmd.Dir = "."
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			cores := (benchkit.CPUTime() - cpu0).Seconds() / time.Since(wall0).Seconds()
			wg.Wait()
			if err != nil {
				b.Fatalf("load.mjs: %v", err)
			}
			var got map[string]any
			if err := json.Unmarshal(out, &got); err != nil {
				b.Fatalf("load.mjs said %s", out)
			}
			got["hostCores"] = cores
			if len(writes) > 0 {
				slices.Sort(writes)
				got["agentWriteP50"] = float64(writes[len(writes)/2].Microseconds()) / 1000
				got["agentWrites"] = float64(len(writes))
			}
			// Everyone holds what the board holds.
			want := boardDigest(b, h, name)
			for i, d := range got["digests"].([]any) {
				if d != want {
					b.Errorf("%s: client %d holds other elements than the stored board (%v of them)", name, i, got["held"].([]any)[i])
				}
			}
			delete(got, "digests")
			b.Logf("%s: %v", name, got)
			return got
		}
		f := func(m map[string]any, k string) float64 { v, _ := m[k].(float64); return v }
		base := run("pair", 2, false)
		load := run("crowd", people, true)
		b.ReportMetric(f(base, "strokeP50"), "pair-stroke-p50-ms")
		b.ReportMetric(f(load, "strokeP50"), "stroke-p50-ms")
		b.ReportMetric(f(load, "strokeP99"), "stroke-p99-ms")
		b.ReportMetric(f(load, "pointerP50"), "pointer-p50-ms")
		b.ReportMetric(f(load, "strokeP50")/f(base, "strokeP50"), "stroke-p50-ratio")
		b.ReportMetric(f(load, "agentWriteP50"), "agent-write-p50-ms")
		b.ReportMetric(f(load, "hostCores"), "host-cores")
		b.ReportMetric(f(load, "errors"), "errors")
	}
}

// boardDigest is load.mjs's digest of a stored board: every element's id,
// version and versionNonce.
func boardDigest(t testing.TB, h *host, name string) string {
	t.Helper()
	var lines []string
	for id, el := range h.board(name) {
		lines = append(lines, fmt.Sprintf("%s:%d:%d\n", id, int64(el["version"].(float64)), int64(el["versionNonce"].(float64))))
	}
	slices.Sort(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "")))
	return hex.EncodeToString(sum[:])
}

// After a forced save put the board back ("Overwrite anyway" in another
// editor), an element the room relayed at a higher version may be older
// on the board than what a member sends next: that edit must still be
// stored, not acknowledged and dropped.
func TestEditAfterAnOverwriteIsStored(t *testing.T) {
	roomcheck.NeedNode(t)
	h := startHost(t)
	h.call("excalidraw_scene_create", `{"name":"plan","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":50}]}`)
	_, before := h.send(http.MethodGet, "/dsh-excalidraw/api/scenes/plan", "", h.h.Token())
	_, info := h.send(http.MethodGet, "/dsh-excalidraw/api/scenes/plan/room", "", h.h.Token())
	ann := roomcheck.Join(t, "ann", h.h.URL(), info["link"].(string), h.h.Token())
	ann.Message("SCENE_INIT", nil)
	ann.Do(map[string]any{"do": "update", "elements": []any{roomcheck.Rect("n1", "aV", 300, 5)}})
	ann.Await("n1 saved", func(e roomcheck.Event) bool { return e.Ev == "dsh-saved" })

	// Another editor overwrites the board with what it had before n1.
	scene, _ := json.Marshal(before["scene"])
	if st, out := h.send(http.MethodPut, "/dsh-excalidraw/api/scenes/plan", `{"scene":`+string(scene)+`,"force":true}`, h.h.Token()); st != 200 {
		t.Fatalf("forced save: %d %v", st, out)
	}
	if h.board("plan")["n1"] != nil {
		t.Fatal("the overwrite kept n1")
	}
	// ann edits n1 again, at a version below the one the room relayed.
	ann.Do(map[string]any{"do": "update", "elements": []any{roomcheck.Rect("n1", "aV", 450, 3)}})
	ann.Await("the edit saved", func(e roomcheck.Event) bool {
		els, _ := e.Body["elements"].(map[string]any)
		return e.Ev == "dsh-saved" && els["n1"] == 3.0
	})
	if el := h.board("plan")["n1"]; el == nil || el["x"] != 450.0 {
		t.Fatalf("the edit after the overwrite was acknowledged but not stored: %v", el)
	}
}
