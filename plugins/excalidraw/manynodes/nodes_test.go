package manynodes

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// exportsSecret signs export links the same on every node.
const exportsSecret = "many-nodes-test-secret-0123456789abcdef"

// cluster is several `dsh serve` processes on one database.
type cluster struct {
	t     testing.TB
	bin   string
	dsn   string
	nodes []*dshtest.Process
	token string // a host token in the shared state: valid on every node
	http  *http.Client
}

// nodeYAML is a node's config: its own port and data directory, the
// shared database from DSH_STORE_DSN.
const nodeYAML = `host:
  listen: 127.0.0.1:0
  dataDir: ./data
  log: {level: warn, format: json}
  http: {drainTimeout: 2s, shutdownTimeout: 5s}
  store: {kind: postgres}
plugins:
  - {id: excalidraw, name: excalidraw, config: {exports: {secret: "` + exportsSecret + `"}}}
`

// newCluster starts n nodes on a fresh database and makes a host token
// in the shared state (none with n == 0).
func newCluster(t testing.TB, n int) *cluster {
	t.Helper()
	c := &cluster{t: t, bin: dshtest.Build(t), dsn: pgtest.DSN(t)}
	tr := &http.Transport{MaxIdleConnsPerHost: 128}
	t.Cleanup(tr.CloseIdleConnections)
	c.http = &http.Client{Transport: tr, Timeout: 60 * time.Second}
	for range n {
		c.nodes = append(c.nodes, c.start())
	}
	if n == 0 {
		return c
	}
	c.mintToken()
	return c
}

// mintToken makes a host token through the first node's config (in the
// shared state when the node is on the database).
func (c *cluster) mintToken() {
	c.t.Helper()
	out, err := c.cli(c.nodes[0], "token", "create", "shared")
	if err != nil {
		c.t.Fatalf("dsh token create: %v\n%s", err, out)
	}
	c.token = strings.TrimSpace(out)
}

// start runs one more node and waits for its /readyz.
func (c *cluster) start() *dshtest.Process {
	p := dshtest.Start(c.t, c.bin, nodeYAML, "DSH_STORE_DSN="+c.dsn)
	c.awaitReady(p)
	return p
}

// readyz asks node p's /readyz: its status and its body.
func (c *cluster) readyz(p *dshtest.Process) (int, string) {
	c.t.Helper()
	resp, err := c.http.Get(p.URL + "/readyz")
	if err != nil {
		c.t.Fatalf("/readyz: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// awaitReady polls node p's /readyz until it answers 200, which on the
// database names the plugin's store and migrations checks, passed.
func (c *cluster) awaitReady(p *dshtest.Process) {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := c.http.Get(p.URL + "/readyz")
		if err == nil {
			var body struct{ Checks []struct{ Name string } }
			_ = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				names := fmt.Sprint(body.Checks)
				if !strings.Contains(names, "excalidraw.store") || !strings.Contains(names, "excalidraw.migrations") {
					c.t.Fatalf("/readyz on the database: %s", names)
				}
				return
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("node %s not ready within 60s: %v\n%s", p.URL, err, dshtest.Tail(p.Stderr(), 20))
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// cli runs a dsh command against node p's config (its stdout).
func (c *cluster) cli(p *dshtest.Process, args ...string) (string, error) {
	cmd := exec.Command(c.bin, append(args, "--config", filepath.Join(p.Dir, "dsh.yaml"))...)
	cmd.Env = append(os.Environ(), "DSH_STORE_DSN="+c.dsn)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stdout.String() + stderr.String(), err
	}
	return stdout.String(), nil
}

// call sends a JSON request to node p's scene API with the shared token
// and decodes the answer; it returns the status.
func (c *cluster) call(p *dshtest.Process, method, path string, body, out any) int {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, p.URL+"/dsh-excalidraw/api"+path, rd)
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
		}
	}
	return resp.StatusCode
}

// callQuiet is call that answers 0 when the node does not answer at all
// (it is down) instead of failing the test.
func (c *cluster) callQuiet(p *dshtest.Process, method, path string, body, out any) int {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, p.URL+"/dsh-excalidraw/api"+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && len(raw) > 0 {
		_ = json.Unmarshal(raw, out)
	}
	return resp.StatusCode
}

// agent is an MCP client session on node p's /mcp (or any URL).
func (c *cluster) agent(url string) *mcp.ClientSession {
	c.t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "many-nodes-agent", Version: "1"}, nil)
	hc := &http.Client{Transport: dshtest.Bearer{Token: c.token, Base: c.http.Transport}}
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		c.t.Fatalf("MCP connect %s: %v", url, err)
	}
	c.t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// tool calls a tool and decodes its JSON result; a tool error fails.
func tool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("%s failed: %v", name, out)
	}
	return out
}

// scene is a one-rectangle scene document tagged by its id.
func scene(id string, x int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"type":"excalidraw","version":2,"source":"test","elements":[`+
		`{"type":"rectangle","id":%q,"x":%d,"y":0,"width":50,"height":40}],"appState":{},"files":{}}`, id, x))
}

type saveAnswer struct {
	Revision int64 `json:"revision"`
	Error    struct {
		Code    string         `json:"code"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

// The same scene written through both nodes with the same expected
// revision, round after round: exactly one write wins each round, the
// other is told revision_conflict with the winner's revision; and what
// either node reads afterwards is the same.
func TestOneWinnerAcrossNodes(t *testing.T) {
	c := newCluster(t, 2)
	a, b := c.nodes[0], c.nodes[1]
	if st := c.call(a, http.MethodPost, "/scenes", map[string]any{"name": "race"}, nil); st != http.StatusCreated && st != http.StatusOK {
		t.Fatalf("create on A: %d", st)
	}
	const rounds = 40
	for r := int64(1); r <= rounds; r++ {
		var wg sync.WaitGroup
		answers := make([]saveAnswer, 2)
		status := make([]int, 2)
		for i, p := range []*dshtest.Process{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status[i] = c.call(p, http.MethodPut, "/scenes/race", map[string]any{
					"scene": scene(fmt.Sprintf("r%d-node%d", r, i), int(r)), "expected_revision": r}, &answers[i])
			}()
		}
		wg.Wait()
		won := 0
		for i := range 2 {
			switch {
			case status[i] == http.StatusOK && answers[i].Revision == r+1:
				won++
			case status[i] == http.StatusConflict && answers[i].Error.Code == "revision_conflict":
				if got := answers[i].Error.Details["currentRevision"]; got != float64(r+1) {
					t.Fatalf("round %d: the loser is told revision %v, want %d", r, got, r+1)
				}
			default:
				t.Fatalf("round %d, node %d: %d %+v", r, i, status[i], answers[i])
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d winners", r, won)
		}
	}
	var fromA, fromB struct {
		Revision int64  `json:"revision"`
		SHA256   string `json:"sha256"`
	}
	c.call(a, http.MethodGet, "/scenes/race", nil, &fromA)
	c.call(b, http.MethodGet, "/scenes/race", nil, &fromB)
	if fromA.Revision != rounds+1 || fromA != fromB {
		t.Fatalf("after %d rounds A reads %+v, B %+v", rounds, fromA, fromB)
	}
}
