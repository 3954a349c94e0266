package oauthcheck_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// client is client.mjs, read line by line.
type client struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
}

func (c *client) next(within time.Duration) string {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.t.Fatal("the client exited")
		}
		return l
	case <-time.After(within):
		c.t.Fatal("the client said nothing for", within)
	}
	return ""
}

func (c *client) expect(prefix string) string {
	c.t.Helper()
	l := c.next(60 * time.Second)
	if !strings.HasPrefix(l, prefix) {
		c.t.Fatalf("client said %q, want %s…", l, prefix)
	}
	return strings.TrimPrefix(l, prefix)
}

func (c *client) call(tool, args string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.in, "call %s %s\n", tool, args); err != nil {
		c.t.Fatal(err)
	}
}

// TestRemoteClientSignsInWithOAuth is the flow a remote MCP connector
// goes through, with the TypeScript SDK's own client auth: a 401 points
// it at the metadata, it registers, the person approves in the consent
// page (headless Chromium, signed in as the owner), it exchanges the code
// with PKCE, and draws on the one board it was given as the owner's bot.
// Its token is listed like any connect token, and revoking it cuts the
// open session.
func TestRemoteClientSignsInWithOAuth(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Missing(t, "node is not installed (Node 20+)")
	}
	if _, err := os.Stat("node_modules/@modelcontextprotocol/sdk/package.json"); err != nil {
		testenv.Missing(t, "the MCP TypeScript SDK is not installed: run plugins/excalidraw/oauth/oauthcheck/setup.sh (make node-deps does)")
	}
	tab := testenv.Browser(t)

	data := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	h := startHost(ctx, t, data)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	api := func(method, path, body string) (int, map[string]any) {
		t.Helper()
		resp, b := dshtest.Send(t, hc, method, h.URL()+"/dsh-excalidraw/api"+path, body, "Authorization", "Bearer "+h.Token(), "Content-Type", "application/json")
		var out map[string]any
		_ = json.Unmarshal(b, &out)
		return resp.StatusCode, out
	}
	for _, name := range []string{"plan", "other"} {
		if st, out := api(http.MethodPost, "/scenes", `{"name":"`+name+`"}`); st != http.StatusCreated {
			t.Fatalf("create %s: %d %v", name, st, out)
		}
	}

	// The owner is signed in, in the browser.
	link, err := h.LoginLink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}

	cmd := exec.CommandContext(ctx, node, "client.mjs", h.URL()+"/mcp")
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = io.WriteString(in, "quit\n"); _ = in.Close(); _ = cmd.Wait() })
	c := &client{t: t, in: in, lines: make(chan string, 16)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()

	authorize := c.expect("AUTHORIZE ")
	shot := filepath.Join(os.TempDir(), "dsh-oauth-consent.png")
	err = chromedp.Do(tab,
		chromedp.Navigate(authorize),
		chromedp.WaitVisible(chromedp.CSS(`input[name=board][value=plan]`)),
		chromedp.Click(chromedp.CSS(`input[name=board][value=plan]`)),
		chromedp.Click(chromedp.CSS(`input[name=role][value=editor]`)),
	)
	if err != nil {
		t.Fatalf("consent page: %v", err)
	}
	png, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`button[value=approve]`))); err != nil {
		t.Fatalf("approve: %v", err)
	}
	// The answer redirects the tab to the client's listener.
	var where string
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(where, "/callback"); {
		if time.Now().After(deadline) {
			body, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("the browser did not come back to the client (at %s): %s", where, body)
		}
		where, _ = chromedp.Run(tab, chromedp.Location())
	}
	_ = os.WriteFile(shot, png, 0o644)
	t.Logf("consent page: %s", shot)
	c.expect("CONNECTED")

	// It draws on the board it was given…
	c.call("batch_create", `{"name":"plan","elements":[{"type":"rectangle","id":"r","x":0,"y":0,"width":120,"height":60}]}`)
	var res struct {
		IsError bool                    `json:"isError"`
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal([]byte(c.expect("RESULT ")), &res); err != nil || res.IsError {
		t.Fatalf("batch_create over OAuth: %+v %v", res, err)
	}
	// …and does not see the other.
	c.call("excalidraw_scene_read", `{"name":"other"}`)
	if err := json.Unmarshal([]byte(c.expect("RESULT ")), &res); err != nil || !res.IsError || !strings.Contains(res.Content[0].Text, `"not_found"`) {
		t.Fatalf("reading a board it was not given: %+v %v", res, err)
	}

	// The journal names the bot and the person it acts for.
	st, log := api(http.MethodGet, "/scenes/plan/log", "")
	entries, _ := log["entries"].([]any)
	if st != 200 || len(entries) == 0 {
		t.Fatalf("log: %d %v", st, log)
	}
	last := entries[0].(map[string]any)
	if !strings.HasPrefix(fmt.Sprint(last["bot"]), "oauthcheck") || last["person"] != "olga" {
		t.Fatalf("the commit is not attributed to the bot and its person: %v", last)
	}

	// Its token is a connect token, listed with the others…
	st, list := api(http.MethodGet, "/mcp/tokens?board=plan", "")
	tokens, _ := list["tokens"].([]any)
	if st != 200 || len(tokens) != 1 {
		t.Fatalf("tokens: %d %v", st, list)
	}
	tok := tokens[0].(map[string]any)
	if !strings.HasPrefix(fmt.Sprint(tok["client"]), "oauth:") || tok["role"] != "editor" {
		t.Fatalf("the OAuth token as listed: %v", tok)
	}
	// …and revoking it cuts the open session: the next call fails and
	// changes nothing.
	file := filepath.Join(data, "excalidraw", "drawings", "plan.excalidraw")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if st, out := api(http.MethodDelete, "/mcp/tokens/"+fmt.Sprint(tok["id"]), ""); st != 200 {
		t.Fatalf("revoke: %d %v", st, out)
	}
	c.call("batch_create", `{"name":"plan","elements":[{"type":"ellipse","id":"e","x":300,"y":0,"width":80,"height":80}]}`)
	for {
		l := c.next(60 * time.Second)
		if strings.HasPrefix(l, "AUTHORIZE ") {
			continue // the SDK asks the person again: the token is gone
		}
		if strings.HasPrefix(l, "RESULT ") && !strings.Contains(l, `"isError":true`) {
			t.Fatalf("a call after revocation succeeded: %s", l)
		}
		t.Logf("after revocation: %.200s", l)
		break
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Fatal("a call after revocation changed the scene")
	}
}
