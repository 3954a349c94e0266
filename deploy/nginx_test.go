package deploy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/metrics/metricstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// nginxBin is Debian's nginx (.ci/run installs it); without it the test
// ends (testenv.Missing: a failure in CI).
func nginxBin(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	testenv.Missing(t, "nginx is not installed (Debian: apt-get install nginx)")
	return ""
}

// localNginx writes deploy/nginx.conf into a folder of the test's, as
// written but for the addresses compose gives: the upstream servers
// become upstream (in order) and the listen port becomes listen. It
// returns the folder, which nginx's -p and -c name.
func localNginx(t *testing.T, upstream []string, listen string) string {
	t.Helper()
	conf := nginxConf(t)
	servers := nginxUpstream(t)
	if len(servers) != len(upstream) {
		t.Fatalf("nginx.conf has %d upstream servers, the test %d", len(servers), len(upstream))
	}
	for i, s := range servers {
		conf = strings.Replace(conf, "server "+s+";", "server "+upstream[i]+";", 1)
	}
	conf = regexp.MustCompile(`(?m)^(\s*listen\s+)\d+;`).ReplaceAllString(conf, "${1}"+listen+";")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// nginxArgs are the flags that keep nginx's own files in dir.
func nginxArgs(dir string, more ...string) []string {
	return []string{"-p", dir, "-c", filepath.Join(dir, "nginx.conf"), "-e", "stderr",
		"-g", "pid " + filepath.Join(dir, "nginx.pid") + ";" + strings.Join(more, "")}
}

// TestNginxConfigIsValid: nginx -t accepts deploy/nginx.conf (with the
// upstream names compose's network resolves spelled as loopback
// addresses, which nginx -t resolves here).
func TestNginxConfigIsValid(t *testing.T) {
	bin := nginxBin(t)
	dir := localNginx(t, []string{"127.0.0.1:7421", "127.0.0.1:7422"}, "8080")
	out, err := exec.Command(bin, append([]string{"-t"}, nginxArgs(dir)...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("nginx -t: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "test is successful") {
		t.Fatalf("nginx -t: %s", out)
	}
}

// freePort is a loopback port nothing listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return port(t, l.Addr().String())
}

// awaitStatus polls url until it answers want (a minute at most).
func awaitStatus(t *testing.T, c *http.Client, url string, want int, what func() string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := c.Get(url)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == want {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not answer %d within a minute: %v\n%s", url, want, err, what())
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// healthzCount is how many GET /healthz node p has answered, from its
// own /metrics.
func healthzCount(t *testing.T, c *http.Client, p *dshtest.Process, token string) float64 {
	t.Helper()
	fams := metricstest.Scrape(t, c, p.URL+"/metrics", token)
	n := 0.0
	for _, m := range fams["dsh_http_requests_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "route" && strings.Contains(l.GetValue(), "/healthz") {
				n += m.GetCounter().GetValue()
			}
		}
	}
	return n
}

// TestNodesBehindNginx runs deploy/nginx.conf in a real nginx in front of
// two real `dsh serve` nodes on one PostgreSQL database, each with
// deploy/dsh.yaml (on loopback ports, nginx's address trusted), and goes
// through nginx as people and agents do: requests spread over both nodes
// (round robin), each client is counted by the address nginx appends to
// X-Forwarded-For, the Host header reaches dsh as sent (a host dsh does
// not allow is refused by dsh itself), a login link's session holds on
// both nodes, an agent's MCP tool calls work
// without sessions, and an editor's live event stream gets a write made
// through nginx as it happens (nginx does not buffer it).
func TestNodesBehindNginx(t *testing.T) {
	ngx := nginxBin(t)
	dsn := pgtest.DSN(t)
	bin := dshtest.Build(t)
	tr := &http.Transport{MaxIdleConnsPerHost: 16}
	t.Cleanup(tr.CloseIdleConnections)
	c := &http.Client{Transport: tr, Timeout: 60 * time.Second}

	// nginx's address, which the nodes' publicURL names as compose's
	// does: the links they hand out must work through it.
	listen := freePort(t)
	lb := "http://localhost:" + listen

	// The nodes one after the other, as compose starts them: the first
	// creates the schema.
	var nodes []*dshtest.Process
	for range 2 {
		yml := testNodeYAML(t, "./data", dsn)
		var doc map[string]any
		_ = yaml.Unmarshal([]byte(yml), &doc)
		// nginx reaches the nodes from 127.0.0.1; the test's clients come
		// from other loopback addresses, which nginx names in
		// X-Forwarded-For. One OAuth registration an hour per client
		// address shows whom the nodes count.
		doc["host"].(map[string]any)["trustedProxy"] = map[string]any{"addresses": []string{"127.0.0.1/32"}}
		doc["host"].(map[string]any)["publicURL"] = lb
		for _, e := range doc["plugins"].([]any) {
			if e := e.(map[string]any); e["name"] == "excalidraw" {
				e["config"].(map[string]any)["oauth"] = map[string]any{"registrationsPerHourPerAddress": 1}
			}
		}
		b, _ := yaml.Marshal(doc)
		p := dshtest.Start(t, bin, string(b))
		awaitStatus(t, c, p.URL+"/readyz", http.StatusOK, func() string { return dshtest.Tail(p.Stderr(), 20) })
		nodes = append(nodes, p)
	}
	// A host token in the shared database, good on both nodes.
	cmd := exec.Command(bin, "token", "create", "deploy-test", "--config", filepath.Join(nodes[0].Dir, "dsh.yaml"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dsh token create: %v %s", err, out)
	}
	token := strings.TrimSpace(string(out))

	var upstream []string
	for _, p := range nodes {
		upstream = append(upstream, strings.TrimPrefix(p.URL, "http://"))
	}
	dir := localNginx(t, upstream, listen)
	var stderr dshtest.Buffer
	ncmd := exec.Command(ngx, nginxArgs(dir, "daemon off;")...)
	ncmd.Stderr = &stderr
	if err := ncmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = ncmd.Process.Signal(syscall.SIGTERM)
		_ = ncmd.Wait()
	})
	awaitStatus(t, c, lb+"/healthz", http.StatusOK, stderr.String)

	// Round robin: both nodes answer some of ten probes.
	before := []float64{healthzCount(t, c, nodes[0], token), healthzCount(t, c, nodes[1], token)}
	for range 10 {
		if resp, body := dshtest.Send(t, c, http.MethodGet, lb+"/healthz", ""); resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /healthz through nginx: %d %s", resp.StatusCode, body)
		}
	}
	for i, p := range nodes {
		if d := healthzCount(t, c, p, token) - before[i]; d < 3 {
			t.Errorf("node %d answered %v of 10 probes through nginx: not round robin", i+1, d)
		}
	}

	// The Host header goes through: one dsh does not allow is refused by
	// dsh (forbidden_host), not rewritten by nginx into one it allows.
	req, _ := http.NewRequest(http.MethodGet, lb+"/healthz", nil)
	req.Host = "elsewhere.example"
	if resp, err := c.Do(req); err != nil {
		t.Fatal(err)
	} else {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "forbidden_host") {
			t.Errorf("Host elsewhere.example through nginx: %d %s", resp.StatusCode, body)
		}
	}

	// X-Forwarded-For: each client's registrations are counted apart,
	// though all reach the nodes from nginx's address.
	register := func(from string) int {
		t.Helper()
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		ct := &http.Transport{DialContext: d.DialContext}
		defer ct.CloseIdleConnections()
		resp, body := dshtest.Send(t, &http.Client{Transport: ct, Timeout: 60 * time.Second}, http.MethodPost, lb+"/oauth/register",
			`{"client_name":"deploy-test","redirect_uris":["http://127.0.0.1:9/callback"]}`, "Content-Type", "application/json")
		if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("POST /oauth/register from %s through nginx: %d %s", from, resp.StatusCode, body)
		}
		return resp.StatusCode
	}
	if st := register("127.0.0.2"); st != http.StatusCreated {
		t.Fatalf("the first registration from 127.0.0.2: %d", st)
	}
	if st := register("127.0.0.2"); st != http.StatusTooManyRequests {
		t.Errorf("a second registration from 127.0.0.2 within the hour: %d, want 429", st)
	}
	if st := register("127.0.0.3"); st != http.StatusCreated {
		t.Errorf("the first registration from 127.0.0.3: %d, want 201 (counted as 127.0.0.2's: X-Forwarded-For not passed?)", st)
	}

	// A person logs in through nginx: `dsh login`, run beside one node,
	// prints a link on the publicURL (nginx's address), which works on
	// any node behind it (the link and then the session live in the
	// database), so the session holds on both nodes without sticky
	// sessions.
	lout, err := exec.Command(bin, "login", "--config", filepath.Join(nodes[0].Dir, "dsh.yaml")).Output()
	if err != nil {
		t.Fatalf("dsh login: %v %s", err, lout)
	}
	link, err := url.Parse(strings.TrimSpace(string(lout)))
	if err != nil || link.Path == "" {
		t.Fatalf("dsh login printed %q", lout)
	}
	if got := link.Scheme + "://" + link.Host; got != lb {
		t.Fatalf("dsh login printed a link on %s, want the publicURL %s: %q", got, lb, lout)
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Transport: tr, Jar: jar, Timeout: 60 * time.Second}
	if resp, err := browser.Get(link.String()); err != nil {
		t.Fatalf("the login link through nginx: %v", err)
	} else {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 400 {
			t.Fatalf("the login link through nginx: %d", resp.StatusCode)
		}
	}
	if resp, body := dshtest.Send(t, c, http.MethodGet, lb+"/api/status", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("GET /api/status through nginx without a session: %d %s", resp.StatusCode, body)
	}
	if u, _ := url.Parse(lb); len(jar.Cookies(u)) == 0 {
		t.Fatal("the login link set no cookie through nginx")
	}
	for i := range 4 {
		resp, err := browser.Get(lb + "/api/status")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /api/status #%d through nginx with the session: %d %s", i+1, resp.StatusCode, body)
		}
	}

	// An editor's live stream through nginx, then an agent's writes
	// through nginx: each revision reaches the stream as it is made.
	agent := mcp.NewClient(&mcp.Implementation{Name: "deploy-test", Version: "1"}, nil)
	hc := &http.Client{Transport: dshtest.Bearer{Token: token, Base: tr}}
	cs, err := agent.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: lb + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("MCP through nginx: %v", err)
	}
	defer cs.Close()
	callTool := func(name, args string) string {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s through nginx: %v", name, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			t.Fatalf("%s through nginx: %s", name, text)
		}
		return text
	}
	callTool("excalidraw_scene_create", `{"name":"behind-nginx","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":10,"height":10}]}`)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sreq, _ := http.NewRequestWithContext(ctx, http.MethodGet, lb+"/dsh-excalidraw/api/scenes/behind-nginx/events", nil)
	sreq.Header.Set("Authorization", "Bearer "+token)
	sreq.Header.Set("Accept", "text/event-stream")
	sresp, err := (&http.Client{Transport: tr}).Do(sreq)
	if err != nil || sresp.StatusCode != http.StatusOK {
		t.Fatalf("event stream through nginx: %v %v", sresp, err)
	}
	revs := make(chan int64, 16)
	go func() {
		defer sresp.Body.Close()
		sc := bufio.NewScanner(sresp.Body)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var ev struct{ Revision int64 }
			if json.Unmarshal([]byte(data), &ev) == nil && ev.Revision > 0 {
				revs <- ev.Revision
			}
		}
	}()
	await := func(rev int64) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case got := <-revs:
				if got >= rev {
					return
				}
			case <-deadline:
				t.Fatalf("revision %d did not come down the stream through nginx within 30 s", rev)
			}
		}
	}
	await(1)
	for rev := int64(1); rev <= 3; rev++ {
		callTool("excalidraw_scene_apply", fmt.Sprintf(`{"name":"behind-nginx","expected_revision":%d,"operations":[{"op":"update","id":"a","patch":{"x":%d}}]}`, rev, rev*10))
		await(rev + 1)
	}
}
