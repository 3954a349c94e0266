package roomcheck_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// event is one line client.mjs reports.
type event struct {
	Ev      string          `json:"ev"`
	ID      string          `json:"id"`
	IDs     []string        `json:"ids"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
	Body    map[string]any  `json:"body"`
	Do      string          `json:"do"`
	raw     string
}

// client is one client.mjs process: a stock-protocol room client.
type client struct {
	t      *testing.T
	name   string
	in     io.WriteCloser
	events chan event
	id     string

	mu    sync.Mutex
	seen  []event
	taken map[int]bool
}

func (c *client) do(cmd map[string]any) {
	c.t.Helper()
	b, _ := json.Marshal(cmd)
	if _, err := fmt.Fprintf(c.in, "%s\n", b); err != nil {
		c.t.Fatalf("%s: %v", c.name, err)
	}
	if cmd["do"] == "close" {
		return
	}
	c.await("done "+cmd["do"].(string), func(e event) bool { return e.Ev == "done" && e.Do == cmd["do"] })
}

// await returns the first event not yet taken that matches, waiting for
// it a minute at most (these machines are shared; a pass takes
// milliseconds). Events are taken in any order: a client decrypts
// messages as they come, so they may overtake plain events.
func (c *client) await(what string, match func(event) bool) event {
	c.t.Helper()
	deadline := time.After(time.Minute)
	for {
		c.mu.Lock()
		for i := range c.seen {
			if !c.taken[i] && match(c.seen[i]) {
				c.taken[i] = true
				e := c.seen[i]
				c.mu.Unlock()
				return e
			}
		}
		c.mu.Unlock()
		select {
		case _, ok := <-c.events:
			if !ok {
				c.t.Fatalf("%s exited waiting for %s; it said:\n%s", c.name, what, c.said())
			}
		case <-deadline:
			c.t.Fatalf("%s: no %s within a minute; it said:\n%s", c.name, what, c.said())
		}
	}
}

func (c *client) said() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, e := range c.seen {
		b.WriteString("  " + e.raw + "\n")
	}
	return b.String()
}

// message awaits an encrypted message of a type whose payload passes match.
func (c *client) message(typ string, match func(payload map[string]any) bool) map[string]any {
	c.t.Helper()
	var p map[string]any
	c.await(typ, func(e event) bool {
		if e.Ev != "message" || e.Type != typ {
			return false
		}
		p = nil
		_ = json.Unmarshal(e.Payload, &p)
		return match == nil || match(p)
	})
	return p
}

// hasElement matches a scene message holding element id.
func hasElement(id string) func(map[string]any) bool {
	return func(p map[string]any) bool {
		els, _ := p["elements"].([]any)
		for _, e := range els {
			if m, _ := e.(map[string]any); m["id"] == id {
				return true
			}
		}
		return false
	}
}

// join starts client.mjs on the board's room link and waits until it is in.
func join(t *testing.T, name, url, link, token string) *client {
	t.Helper()
	cmd := exec.Command("node", "client.mjs", url, link, token)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, name: name, in: in, events: make(chan event, 1<<16), taken: map[int]bool{}}
	go func() {
		defer close(c.events)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) != nil {
				continue
			}
			e.raw = sc.Text()
			if len(e.raw) > 300 {
				e.raw = e.raw[:300] + "…"
			}
			c.mu.Lock()
			c.seen = append(c.seen, e)
			c.mu.Unlock()
			c.events <- e
		}
	}()
	t.Cleanup(func() {
		_ = in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		for range c.events {
		}
	})
	c.id = c.await("connect", func(e event) bool { return e.Ev == "connect" }).ID
	return c
}

// rect is a rectangle as Excalidraw's editor makes it: every field.
func rect(id, index string, x float64, version int) map[string]any {
	return map[string]any{
		"id": id, "type": "rectangle", "x": x, "y": 200, "width": 120, "height": 60, "angle": 0,
		"strokeColor": "#1e1e1e", "backgroundColor": "transparent", "fillStyle": "solid", "strokeWidth": 2,
		"strokeStyle": "solid", "roughness": 1, "opacity": 100, "groupIds": []any{}, "frameId": nil,
		"index": index, "roundness": map[string]any{"type": 3}, "seed": 1234, "version": version,
		"versionNonce": 99, "isDeleted": false, "boundElements": nil, "updated": 1700000000000,
		"link": nil, "locked": false,
	}
}

type host struct {
	t   *testing.T
	h   *dsh.Host
	mcp *mcp.ClientSession
	c   *http.Client

	minted int
}

func startHost(t *testing.T) *host {
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
	h.minted++
	b, _ := json.Marshal(map[string]any{"name": fmt.Sprintf("%s-bot-%d", role, h.minted), "boards": boards, "role": role})
	st, out := h.send(http.MethodPost, "/dsh-excalidraw/api/mcp/tokens", string(b), h.h.Token())
	if st != 201 && st != 200 {
		h.t.Fatalf("mint: %d %v", st, out)
	}
	return out["token"].(string)
}

func needNode(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed (Node 20+)")
	}
	if _, err := os.Stat("node_modules/socket.io-client/package.json"); err != nil {
		testenv.Missing(t, "socket.io-client is not installed: run plugins/excalidraw/room/roomcheck/setup.sh (make node-deps does)")
	}
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
	needNode(t)
	h := startHost(t)
	h.call("excalidraw_scene_create", `{"name":"plan","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":50}]}`)
	st, info := h.send(http.MethodGet, "/dsh-excalidraw/api/scenes/plan/room", "", h.h.Token())
	if st != 200 {
		t.Fatalf("room: %d %v", st, info)
	}
	link := info["link"].(string)

	ann := join(t, "ann", h.h.URL(), link, h.h.Token())
	ann.await("room-user-change", func(e event) bool { return e.Ev == "room-user-change" })
	ann.message("SCENE_INIT", hasElement("a"))
	room := ann.await("dsh-room", func(e event) bool { return e.Ev == "dsh-room" })
	if room.Body["board"] != "plan" || room.Body["role"] != "owner" {
		t.Fatalf("dsh-room %v", room.Body)
	}

	editor := h.token("editor", "plan")
	bob := join(t, "bob", h.h.URL(), link, editor)
	bob.message("SCENE_INIT", hasElement("a"))
	ann.await("bob in the room", func(e event) bool { return e.Ev == "room-user-change" && len(e.IDs) == 2 })

	// ann draws: bob sees it at once, and it is committed, named.
	ann.do(map[string]any{"do": "update", "elements": []any{rect("n1", "aV", 300, 5)}})
	bob.message("SCENE_UPDATE", hasElement("n1"))
	saved := ann.await("dsh-saved", func(e event) bool { return e.Ev == "dsh-saved" })
	if els, _ := saved.Body["elements"].(map[string]any); els["n1"] != 5.0 || saved.Body["revision"].(float64) < 2 {
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
	ann.do(map[string]any{"do": "pointer", "x": 10, "y": 20, "username": "pretend"})
	p := bob.message("MOUSE_LOCATION", func(p map[string]any) bool { return p["socketId"] == ann.id })
	if p["username"] == "pretend" || p["username"] == "" {
		t.Fatalf("pointer named %v, not by dsh", p["username"])
	}

	// An agent's commit reaches both, and the agent shows where it worked.
	h.call("batch_create", `{"name":"plan","elements":[{"type":"ellipse","id":"g1","x":600,"y":0,"width":80,"height":80}]}`)
	for _, c := range []*client{ann, bob} {
		c.message("SCENE_UPDATE", hasElement("g1"))
		ag := c.message("MOUSE_LOCATION", func(p map[string]any) bool { return strings.HasPrefix(fmt.Sprint(p["socketId"]), "agent-") })
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
	ag := ann.message("MOUSE_LOCATION", func(p map[string]any) bool {
		sel, _ := p["selectedElementIds"].(map[string]any)
		return sel["d1"] == true
	})
	if name := fmt.Sprint(ag["username"]); !strings.HasPrefix(name, "editor-bot-") || !strings.Contains(name, "(for ") {
		t.Fatalf("the bot shows as %q", name)
	}

	// bob follows ann: ann hears it, and ann's viewport reaches bob.
	bob.do(map[string]any{"do": "follow", "socketId": ann.id})
	ann.await("followers", func(e event) bool { return e.Ev == "user-follow-room-change" && len(e.IDs) == 1 && e.IDs[0] == bob.id })
	ann.do(map[string]any{"do": "bounds", "bounds": []any{0, 0, 800, 600}})
	bob.message("USER_VISIBLE_SCENE_BOUNDS", func(p map[string]any) bool { return p["socketId"] == ann.id })

	// A message sealed with another key is dropped.
	ann.do(map[string]any{"do": "rekey", "key": "AAAAAAAAAAAAAAAAAAAAAA"})
	ann.do(map[string]any{"do": "update", "elements": []any{rect("bad", "aW", 500, 2)}})
	ann.do(map[string]any{"do": "rekey", "key": strings.SplitN(link, ",", 2)[1]})
	ann.do(map[string]any{"do": "update", "elements": []any{rect("good", "aX", 700, 2)}})
	got := bob.message("SCENE_UPDATE", func(p map[string]any) bool { return hasElement("good")(p) || hasElement("bad")(p) })
	if hasElement("bad")(got) {
		t.Fatal("a message sealed with another key was relayed")
	}

	// A viewer sees the board; what it draws goes nowhere.
	viewer := h.token("viewer", "plan")
	vic := join(t, "vic", h.h.URL(), link, viewer)
	vic.message("SCENE_INIT", hasElement("n1"))
	vic.do(map[string]any{"do": "update", "elements": []any{rect("v1", "aY", 900, 2)}})
	if e := vic.await("dsh-error", func(e event) bool { return e.Ev == "dsh-error" }); e.Body["code"] != "permission_denied" {
		t.Fatalf("viewer's write: %v", e.Body)
	}

	// A token for another board cannot join this one.
	h.call("excalidraw_scene_create", `{"name":"other"}`)
	stranger := join(t, "stranger", h.h.URL(), link, h.token("editor", "other"))
	if e := stranger.await("refusal", func(e event) bool { return e.Ev == "dsh-error" }); e.Body["code"] != "not_found" {
		t.Fatalf("stranger: %v", e.Body)
	}
	stranger.await("disconnect", func(e event) bool { return e.Ev == "disconnect" })

	// bob draws and leaves at once: what he sent is saved.
	bob.do(map[string]any{"do": "update", "elements": []any{rect("last", "aZ", 1100, 3)}})
	bob.do(map[string]any{"do": "close"})
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
