package roomcheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// dir is this package's directory: client.mjs and its node_modules.
func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// NeedNode fails (or, outside make test, skips) t when Node or
// socket.io-client is missing.
func NeedNode(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		testenv.Missing(t, "node is not installed (Node 20+)")
	}
	if _, err := os.Stat(filepath.Join(dir(), "node_modules/socket.io-client/package.json")); err != nil {
		testenv.Missing(t, "socket.io-client is not installed: run plugins/excalidraw/room/roomcheck/setup.sh (make node-deps does)")
	}
}

// Event is one line client.mjs reports.
type Event struct {
	Ev      string          `json:"ev"`
	ID      string          `json:"id"`
	IDs     []string        `json:"ids"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
	Body    map[string]any  `json:"body"`
	Do      string          `json:"do"`
	// At is when the line was read.
	At  time.Time `json:"-"`
	raw string
}

// Client is one client.mjs process: a room client that speaks the
// protocol as a stock Excalidraw client does.
type Client struct {
	t      testing.TB
	name   string
	in     io.WriteCloser
	events chan Event
	// ID is its socket id.
	ID string

	mu    sync.Mutex
	seen  []Event
	taken map[int]bool
}

// Join starts client.mjs on a room link ("#room=<id>,<key>") of the
// server at url with a bearer token, and waits until it is connected.
// The process ends at t's cleanup.
func Join(t testing.TB, name, url, link, token string) *Client {
	t.Helper()
	cmd := exec.Command("node", "client.mjs", url, link, token)
	cmd.Dir = dir()
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
	c := &Client{t: t, name: name, in: in, events: make(chan Event, 1<<16), taken: map[int]bool{}}
	go func() {
		defer close(c.events)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var e Event
			if json.Unmarshal(sc.Bytes(), &e) != nil {
				continue
			}
			e.At = time.Now()
			e.raw = sc.Text()
			if len(e.raw) > 300 {
				e.raw = e.raw[:300] + "…"
			}
			c.mu.Lock()
			c.seen = append(c.seen, e)
			c.mu.Unlock()
			select {
			case c.events <- e:
			default: // nobody is waiting: the event is kept in seen
			}
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
	c.ID = c.Await("connect", func(e Event) bool { return e.Ev == "connect" }).ID
	return c
}

// Do sends a command (see client.mjs) and waits until it was carried out.
func (c *Client) Do(cmd map[string]any) {
	c.t.Helper()
	b, _ := json.Marshal(cmd)
	if _, err := fmt.Fprintf(c.in, "%s\n", b); err != nil {
		c.t.Fatalf("%s: %v", c.name, err)
	}
	if cmd["do"] == "close" {
		return
	}
	c.Await("done "+fmt.Sprint(cmd["do"]), func(e Event) bool { return e.Ev == "done" && e.Do == cmd["do"] })
}

// Send sends a command without waiting for it.
func (c *Client) Send(cmd map[string]any) {
	c.t.Helper()
	b, _ := json.Marshal(cmd)
	if _, err := fmt.Fprintf(c.in, "%s\n", b); err != nil {
		c.t.Fatalf("%s: %v", c.name, err)
	}
}

// Await returns the first event not yet taken that matches, waiting for
// it a minute at most (these machines are shared; a pass takes
// milliseconds). Events are taken in any order: a client decrypts
// messages as they come, so they may overtake plain events.
func (c *Client) Await(what string, match func(Event) bool) Event {
	c.t.Helper()
	deadline := time.After(time.Minute)
	for {
		if e, ok := c.Take(match); ok {
			return e
		}
		select {
		case _, ok := <-c.events:
			if !ok {
				if e, ok := c.Take(match); ok {
					return e
				}
				c.t.Fatalf("%s exited waiting for %s; it said:\n%s", c.name, what, c.said())
			}
		case <-deadline:
			c.t.Fatalf("%s: no %s within a minute; it said:\n%s", c.name, what, c.said())
		}
	}
}

// Take returns the first event not yet taken that matches, if one came.
func (c *Client) Take(match func(Event) bool) (Event, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.seen {
		if !c.taken[i] && match(c.seen[i]) {
			c.taken[i] = true
			return c.seen[i], true
		}
	}
	return Event{}, false
}

func (c *Client) said() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, e := range c.seen {
		b.WriteString("  " + e.raw + "\n")
	}
	return b.String()
}

// Message awaits an encrypted message of a type whose payload passes
// match (nil: any).
func (c *Client) Message(typ string, match func(payload map[string]any) bool) map[string]any {
	c.t.Helper()
	var p map[string]any
	c.Await(typ, func(e Event) bool {
		if e.Ev != "message" || e.Type != typ {
			return false
		}
		p = nil
		_ = json.Unmarshal(e.Payload, &p)
		return match == nil || match(p)
	})
	return p
}

// HasElement matches a scene message holding element id.
func HasElement(id string) func(map[string]any) bool {
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

// Rect is a rectangle as Excalidraw's editor makes it, every field set.
func Rect(id, index string, x float64, version int) map[string]any {
	return map[string]any{
		"id": id, "type": "rectangle", "x": x, "y": 200, "width": 120, "height": 60, "angle": 0,
		"strokeColor": "#1e1e1e", "backgroundColor": "transparent", "fillStyle": "solid", "strokeWidth": 2,
		"strokeStyle": "solid", "roughness": 1, "opacity": 100, "groupIds": []any{}, "frameId": nil,
		"index": index, "roundness": map[string]any{"type": 3}, "seed": 1234, "version": version,
		"versionNonce": 99, "isDeleted": false, "boundElements": nil, "updated": 1700000000000,
		"link": nil, "locked": false,
	}
}
