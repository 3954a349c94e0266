package excalidraw_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

// namedHost is a real host (owner olga) where erin, signed in with her
// password, edits board "named", which the host token made.
type namedHost struct {
	t    *testing.T
	h    *dsh.Host
	c    *http.Client
	host map[string]string // the host token's headers
	erin map[string]string // erin's browser session's headers
}

func newNamedHost(t *testing.T) *namedHost {
	t.Helper()
	data := t.TempDir()
	yaml := fmt.Sprintf("host:\n  listen: 127.0.0.1:0\n  dataDir: %s\n  owner: olga\n  log: {level: error, format: json}\n  http: {drainTimeout: 2s}\nplugins:\n  - {id: excalidraw, name: excalidraw}\n", data)
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(yaml)))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	people := accounts.Open(accounts.File(data), accounts.Options{})
	_, secret, err := people.Add(t.Context(), "erin", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := people.AcceptInvite(t.Context(), secret, "a long password for erin"); err != nil {
		t.Fatal(err)
	}
	n := &namedHost{t: t, h: h, c: hosttest.Client(t), host: map[string]string{"Authorization": "Bearer " + h.Token()}}
	n.must(n.host, "POST", api+"/scenes", `{"name":"named","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":80,"height":40}]}`, 201)
	n.must(n.host, "PUT", api+"/boards/named/members/erin", `{"role":"editor"}`, 200)

	// erin signs in with the password form, as her browser does.
	jar, _ := cookiejar.New(nil)
	bc := &http.Client{Transport: n.c.Transport, Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("POST", h.URL()+"/login", strings.NewReader(url.Values{"name": {"erin"}, "password": {"a long password for erin"}, "next": {"/"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", h.URL())
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := bc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u, _ := url.Parse(h.URL())
	for _, ck := range jar.Cookies(u) {
		if ck.Name == "dsh_session" {
			n.erin = map[string]string{"Cookie": ck.Name + "=" + ck.Value, "Origin": h.URL(), "Sec-Fetch-Site": "same-origin"}
		}
	}
	if n.erin == nil {
		t.Fatalf("erin's sign-in set no session (%d)", resp.StatusCode)
	}
	return n
}

// must sends a request with headers and wants status; it returns the
// decoded body.
func (n *namedHost) must(headers map[string]string, method, path, body string, status int) map[string]any {
	n.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, n.h.URL()+path, rd)
	if err != nil {
		n.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := n.c.Do(req)
	if err != nil {
		n.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		n.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		n.t.Fatalf("%s %s: %s", method, path, b)
	}
	return out
}

// agent opens an MCP session with token, its client calling itself
// client.
func (n *namedHost) agent(token, client string) *mcp.ClientSession {
	n.t.Helper()
	tr := &http.Transport{}
	n.t.Cleanup(tr.CloseIdleConnections)
	s, err := mcp.NewClient(&mcp.Implementation{Name: client, Version: "1"}, nil).Connect(hosttest.Context(n.t), &mcp.StreamableClientTransport{
		Endpoint: n.h.URL() + "/mcp", HTTPClient: &http.Client{Transport: dshtest.Bearer{Token: token, Base: tr}},
	}, nil)
	if err != nil {
		n.t.Fatal(err)
	}
	n.t.Cleanup(func() { _ = s.Close() })
	return s
}

// lastWriter is who the board list, the boards list and the board's
// live events say last changed "named".
func (n *namedHost) lastWriter() (list, boards, live string) {
	n.t.Helper()
	for _, s := range n.must(n.host, "GET", api+"/scenes", "", 200)["scenes"].([]any) {
		if row := s.(map[string]any); row["name"] == "named" {
			list, _ = row["updatedByName"].(string)
		}
	}
	for _, b := range n.must(n.host, "GET", api+"/boards", "", 200)["boards"].([]any) {
		if row := b.(map[string]any); row["name"] == "named" {
			boards, _ = row["updatedByName"].(string)
		}
	}
	// The events stream starts with the board's head.
	ctx, cancel := context.WithCancel(hosttest.Context(n.t))
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", n.h.URL()+api+"/scenes/named/events", nil)
	req.Header.Set("Authorization", n.host["Authorization"])
	resp, err := n.c.Do(req)
	if err != nil {
		n.t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data:"); ok {
			var ch struct{ UpdatedByName string }
			if err := json.Unmarshal([]byte(strings.TrimSpace(data)), &ch); err != nil {
				n.t.Fatalf("event %s: %v", data, err)
			}
			return list, boards, ch.UpdatedByName
		}
	}
	n.t.Fatalf("the events stream ended without an event: %v", sc.Err())
	return
}

// TestPeopleAreNamedByTheirCredential: an agent on erin's connect token
// and one on the host token each change a board, then erin saves and
// merges from the page. Each commit is named by its credential — the
// connect token as "claude (for erin)", the host token by its name —
// never by the name the MCP client claims ("bar", "inspector-cli"), which
// stays a detail (client); erin's saves are named by her, with her id,
// which GET /me gives her page to say "you". The board log, board_log,
// the board lists and the live events agree.
func TestPeopleAreNamedByTheirCredential(t *testing.T) {
	n := newNamedHost(t)
	me := n.must(n.erin, "GET", api+"/me", "", 200)
	erinID, _ := me["personId"].(string)
	if !strings.HasPrefix(erinID, "per_") || me["author"] != "erin" {
		t.Fatalf("GET /me for erin = %v", me)
	}
	var tok struct{ Token string }
	raw, _ := json.Marshal(n.must(n.erin, "POST", api+"/mcp/tokens", `{"boards":["named"],"role":"editor","name":"claude"}`, 201))
	if err := json.Unmarshal(raw, &tok); err != nil || tok.Token == "" {
		t.Fatalf("mint: %s", raw)
	}

	bot := n.agent(tok.Token, "bar")
	okCall(t, bot, "update_elements", `{"name":"named","updates":[{"id":"a","patch":{"x":10}}]}`)
	if list, boards, live := n.lastWriter(); list != "claude (for erin)" || boards != list || live != list {
		t.Errorf("after the bot: the list says %q, the boards %q, the live events %q; want claude (for erin)", list, boards, live)
	}
	host := n.agent(n.h.Token(), "inspector-cli")
	okCall(t, host, "update_elements", `{"name":"named","updates":[{"id":"a","patch":{"x":20}}]}`)
	if list, boards, live := n.lastWriter(); list != "local" || boards != list || live != list {
		t.Errorf("after the host token: the list says %q, the boards %q, the live events %q; want its name, local", list, boards, live)
	}

	// erin, from the page: a save, then a merge of one element.
	read := n.must(n.erin, "GET", api+"/scenes/named", "", 200)
	scene, _ := json.Marshal(read["scene"])
	n.must(n.erin, "PUT", api+"/scenes/named", fmt.Sprintf(`{"scene":%s,"expected_revision":%v,"request_id":"ui-1"}`,
		withBackground(t, scene, "#ffc9c9"), read["revision"]), 200)
	n.must(n.erin, "POST", api+"/scenes/named/merge",
		`{"elements":[{"type":"rectangle","id":"m","x":300,"y":0,"width":40,"height":40,"version":1,"versionNonce":1,"isDeleted":false}]}`, 200)
	if list, boards, live := n.lastWriter(); list != "erin" || boards != list || live != list {
		t.Errorf("after erin: the list says %q, the boards %q, the live events %q; want erin", list, boards, live)
	}

	type row struct{ actor, name, bot, person, personID, client, via string }
	wants := []row{ // newest first
		{"ui", "erin", "", "erin", erinID, "", "editor"},
		{"ui", "erin", "", "erin", erinID, "", "editor"},
		{"agent", "local", "", "", "", "inspector-cli", "update_elements"},
		{"agent", "claude (for erin)", "claude", "erin", erinID, "bar", "update_elements"},
		{"ui", "local", "", "", "", "", "editor"},
	}
	check := func(surface string, page map[string]any) {
		t.Helper()
		entries, _ := page["entries"].([]any)
		if len(entries) != len(wants) {
			t.Fatalf("%s: %d entries, want %d: %v", surface, len(entries), len(wants), entries)
		}
		for i, w := range wants {
			e := entries[i].(map[string]any)
			s := func(k string) string { v, _ := e[k].(string); return v }
			got := row{s("actor"), s("name"), s("bot"), s("person"), s("personId"), s("client"), s("via")}
			if got != w {
				t.Errorf("%s entry %d = %+v, want %+v", surface, i, got, w)
			}
		}
	}
	check("the page's history (GET …/log as erin)", n.must(n.erin, "GET", api+"/scenes/named/log", "", 200))
	check("board_log (the host token)", okCall(t, host, "board_log", `{"name":"named"}`))
	check("board_log (erin's bot)", okCall(t, bot, "board_log", `{"name":"named"}`))
	if top := n.must(n.erin, "GET", api+"/scenes/named/log?limit=2", "", 200)["entries"].([]any); top[0].(map[string]any)["summary"] != "created 1" ||
		top[1].(map[string]any)["summary"] != "changed the background" {
		t.Errorf("erin's commits are summarized as %q and %q", top[0].(map[string]any)["summary"], top[1].(map[string]any)["summary"])
	}
	// The log finds erin's commits by her id, the bot's among them.
	if page := n.must(n.erin, "GET", api+"/scenes/named/log?actor="+erinID, "", 200); len(page["entries"].([]any)) != 3 {
		t.Errorf("the log by erin's id has %d entries, want 3", len(page["entries"].([]any)))
	}
}
