package excalidraw_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"slices"
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

// The access matrix: every kind of caller against every tool, every
// route of the plugin and the file service. Each cell is allowed or
// denied with a definite answer; a denied call leaves the data directory
// byte for byte as it was.
//
// Boards: alpha (the owner olga's; erin an editor, vic a viewer) and beta
// (olga's alone).

// who is a kind of caller.
type who int

const (
	ownerP     who = iota // olga, the host's owner, in the browser
	editorP               // erin, an editor of alpha
	viewerP               // vic, a viewer of alpha
	editorBot             // erin's connect token for alpha, editor
	viewerBot             // erin's connect token for alpha, viewer
	otherBot              // olga's connect token for beta only
	revokedBot            // a connect token revoked before use
	expiredS              // vic's session after it expired
	nobody                // no credentials
)

var whoNames = []string{"owner", "editor person", "viewer person", "editor bot", "viewer bot", "bot of another board", "revoked bot", "expired session", "no credentials"}

func (w who) String() string { return whoNames[w] }

// op is what a call does, which decides who may.
type op int

const (
	free      op = iota // touches no board: anyone signed in
	readA               // reads alpha
	writeA              // changes alpha
	manageA             // renames or describes alpha (its owner)
	trashA              // deletes (trashes) alpha: its owner, in person
	untrashA            // restores alpha from the trash, where only its owner sees it
	shareA              // shares alpha with a person: its owner, in person
	readB               // reads beta
	writeB              // changes beta
	create              // creates a board
	folders             // uses folders
	moveA               // files alpha into a folder (folders, and alpha's owner)
	mint                // mints a connect token for alpha: people only
	evidenceA           // reports alpha's editor evidence: a person's browser that may write alpha
	open                // the open part of the file service: anyone, even without credentials
)

// Verdicts.
const (
	allow  = ""
	pd     = "permission_denied"
	nf     = "not_found"
	unauth = "unauthenticated"
)

// verdict is the matrix itself.
func verdict(w who, o op) string {
	if o == open {
		return allow
	}
	if w == revokedBot || w == expiredS || w == nobody {
		return unauth
	}
	person := w == ownerP || w == editorP || w == viewerP
	switch o {
	case free:
		return allow
	case readA:
		if w == otherBot {
			return nf
		}
		return allow
	case writeA:
		switch w {
		case otherBot:
			return nf
		case viewerP, viewerBot:
			return pd
		}
		return allow
	case manageA:
		switch w {
		case ownerP:
			return allow
		case otherBot:
			return nf
		}
		return pd
	case trashA, shareA, untrashA:
		switch {
		case w == ownerP:
			return allow
		case o == untrashA && person:
			return nf // in the trash alpha is its owner's alone
		}
		return pd // and bots never delete, restore or share: said before the board is looked at
	case readB, writeB:
		if w == ownerP || w == otherBot {
			return allow
		}
		return nf
	case create:
		if person {
			return allow
		}
		return pd
	case folders:
		if person {
			return allow
		}
		return pd
	case moveA:
		if w == ownerP {
			return allow
		}
		return pd
	case mint:
		if person {
			return allow
		}
		return pd
	case evidenceA:
		if w == ownerP || w == editorP {
			return allow
		}
		return pd // a viewer's editor saves nothing; a token is refused before the board is looked at
	}
	panic("unknown op")
}

// toolCase is one tool call; args may use {{rev}} (alpha's revision),
// {{revB}}, {{commit}} (alpha's first commit), {{diagram}} (the diagram drawn in alpha) and {{n}} (a fresh number).
type toolCase struct {
	tool, args string
	op         op
}

var toolCases = []toolCase{
	{"read_me", `{}`, free},
	{"measure_text", `{"text":"hi"}`, free},
	{"excalidraw_scene_list", `{}`, free},
	{"excalidraw_scene_validate", `{"scene":{"type":"excalidraw","version":2,"elements":[]}}`, free},
	{"get_bot_info", `{}`, free},
	{"list_boards", `{}`, free},
	{"excalidraw_scene_read", `{"name":"alpha"}`, readA},
	{"query_elements", `{"name":"alpha"}`, readA},
	{"validate_scene", `{"name":"alpha"}`, readA},
	{"board_log", `{"name":"alpha"}`, readA},
	{"render", `{"name":"alpha"}`, readA},
	{"export", `{"name":"alpha","format":"svg"}`, readA},
	{"excalidraw_scene_apply", `{"name":"alpha","expected_revision":{{rev}},"operations":[{"op":"update","id":"seed","patch":{"x":7}}]}`, writeA},
	{"apply_ops", `{"name":"alpha","ops":[{"tool":"move_elements","args":{"ids":["seed"],"dx":1,"dy":0}}]}`, writeA},
	{"batch_create", `{"name":"alpha","elements":[{"type":"ellipse","x":400,"y":0,"width":40,"height":40}]}`, writeA},
	{"update_elements", `{"name":"alpha","updates":[{"id":"seed","patch":{"x":3}}]}`, writeA},
	{"move_elements", `{"name":"alpha","ids":["seed"],"dx":5,"dy":0}`, writeA},
	{"copy_elements", `{"name":"alpha","ids":["seed"],"dx":300,"dy":0}`, writeA},
	{"delete_elements", `{"name":"alpha","ids":["seed2"]}`, writeA},
	{"group_elements", `{"name":"alpha","ids":["seed","seed2"]}`, writeA},
	{"ungroup_elements", `{"name":"alpha","ids":["seed"]}`, writeA},
	{"reorder", `{"name":"alpha","ids":["seed"],"to":"front"}`, writeA},
	{"arrange", `{"name":"alpha","ids":["seed","seed2"],"align":"top"}`, writeA},
	{"create_frame", `{"name":"alpha","ids":["seed"],"frame_name":"F{{n}}"}`, writeA},
	{"frame_add_children", `{"name":"alpha","frame_id":"{{frame}}","ids":["seed2"]}`, writeA},
	{"replace_text", `{"name":"alpha","find":"hello","replace":"hi"}`, writeA},
	{"create_diagram", `{"name":"alpha","nodes":[{"id":"x","label":"X {{n}}"},{"id":"y"}],"edges":[{"from":"x","to":"y"}]}`, writeA},
	{"update_diagram", `{"name":"alpha","diagram":"{{diagram}}","nodes":[{"id":"a"},{"id":"b"},{"id":"c{{n}}"}],"edges":[{"from":"a","to":"b"}]}`, writeA},
	{"set_table", `{"name":"alpha","header":["K","V"],"rows":[["x","{{n}}"]]}`, writeA},
	{"create_stack", `{"name":"alpha","elements":[{"type":"rectangle","width":40,"height":40}]}`, writeA},
	{"layout_frames", `{"name":"alpha","slides":[{"name":"S{{n}}"}]}`, writeA},
	{"set_legend", `{"name":"alpha","entries":[{"label":"L{{n}}"}]}`, writeA},
	{"set_board_profile", `{"scope":{"board":"alpha"},"profile":{"noWrap":["w{{n}}"]}}`, writeA},
	{"set_board_profile", `{"scope":{"board":"alpha"}}`, readA},
	{"repair_scene", `{"name":"alpha"}`, writeA},
	{"restore", `{"name":"alpha","from":"{{commit}}"}`, writeA},
	{"rename_board", `{"name":"alpha","title":"Alpha {{n}}"}`, manageA},
	{"set_board_description", `{"name":"alpha","description":"the plan {{n}}"}`, manageA},
	{"excalidraw_scene_read", `{"name":"beta"}`, readB},
	{"batch_create", `{"name":"beta","elements":[{"type":"ellipse","x":0,"y":0,"width":40,"height":40}]}`, writeB},
	{"excalidraw_scene_create", `{"name":"made-{{n}}"}`, create},
	{"create_board", `{"name":"board-{{n}}","title":"New"}`, create},
	{"list_folders", `{}`, folders},
	{"create_folder", `{"name":"Work"}`, folders},
	{"move_board_to_folder", `{"name":"alpha","folderId":null}`, moveA},
}

// routeCase is one HTTP request; path and body may use the same
// placeholders.
type routeCase struct {
	method, path, body string
	op                 op
	stream             bool // an event stream: only its head is read
}

const api = "/dsh-excalidraw/api"

var routeCases = []routeCase{
	{"GET", api + "/health", "", free, false},
	{"GET", api + "/me", "", free, false},
	{"GET", api + "/scenes", "", free, false},
	{"GET", api + "/boards", "", free, false},
	{"GET", api + "/events", "", free, true},
	{"POST", api + "/editor-status", `{"event":"mounted","name":"alpha","build":"matrix","width":800,"height":600}`, evidenceA, false},
	{"GET", "/dsh-excalidraw/", "", free, false},
	{"GET", "/dsh-excalidraw", "", free, false},
	{"GET", api + "/scenes/alpha", "", readA, false},
	{"GET", api + "/scenes/alpha/log", "", readA, false},
	{"GET", api + "/scenes/alpha/render.svg", "", readA, false},
	{"GET", api + "/scenes/alpha/render.png", "", readA, false},
	{"GET", api + "/scenes/alpha/thumbnail.png", "", readA, false},
	{"GET", api + "/scenes/alpha/events", "", readA, true},
	{"GET", api + "/scenes/alpha/room", "", readA, false},
	{"GET", api + "/boards/alpha/members", "", readA, false},
	{"GET", "/files/rooms/alpha/pic.bin", "", readA, false},
	{"PUT", api + "/scenes/alpha", `{"scene":{{baseline}},"expected_revision":{{rev}},"request_id":"m{{n}}"}`, writeA, false},
	{"POST", api + "/scenes/alpha/restore", `{"from":"{{commit}}","expected_revision":{{rev}}}`, writeA, false},
	{"POST", api + "/scenes/alpha/merge", `{"elements":[],"appState":{"viewBackgroundColor":"#ffffff"}}`, writeA, false},
	{"PUT", "/files/rooms/alpha/pic.bin", "bytes {{n}}", writeA, false},
	{"PATCH", api + "/boards/alpha", `{"title":"Alpha {{n}}"}`, manageA, false},
	{"DELETE", api + "/boards/alpha", "", trashA, false},
	{"POST", api + "/boards/alpha/restore", "", untrashA, false}, // alpha trashed first (see the loop)
	{"PUT", api + "/boards/alpha/members/erin", `{"role":"editor"}`, shareA, false},
	{"GET", api + "/scenes/beta", "", readB, false},
	{"PUT", api + "/scenes/beta", `{"scene":{{baselineB}},"expected_revision":{{revB}},"request_id":"b{{n}}"}`, writeB, false},
	{"POST", api + "/scenes", `{"name":"route-{{n}}"}`, create, false},
	{"POST", api + "/boards", `{"name":"rboard-{{n}}"}`, create, false},
	{"GET", api + "/folders", "", folders, false},
	{"POST", api + "/folders", `{"name":"Work"}`, folders, false},
	{"PUT", api + "/boards/alpha/folder", `{"folderId":null}`, moveA, false},
	{"POST", api + "/mcp/tokens", `{"boards":["alpha"],"role":"viewer","name":"t{{n}}"}`, mint, false},
	{"GET", api + "/mcp/tokens", "", free, false},
	{"PUT", "/files/shareLinks/s{{n}}.bin", "shared", open, false},
	{"GET", "/files/shareLinks/seed.bin", "", open, false},
}

// matrix is the running host and its callers.
type matrix struct {
	t        *testing.T
	h        *dsh.Host
	data     string
	host     *http.Client
	baseline string // alpha's document as first stored
	baseB    string
	commit   string // alpha's first commit
	frame    string // the frame in alpha
	diagram  string // the diagram drawn in alpha
	n        int
	resets   int
	callers  map[who]*matrixCaller
}

type matrixCaller struct {
	w       who
	headers map[string]string // what its requests carry
	mcp     *mcp.ClientSession
}

func TestAccessMatrix(t *testing.T) {
	m := newMatrix(t)
	cells, denied := 0, 0

	// Every tool and every plugin route has its cases.
	listed, err := m.callers[ownerP].mcp.ListTools(hosttest.Context(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range listed.Tools {
		if !slices.ContainsFunc(toolCases, func(c toolCase) bool { return c.tool == tl.Name }) {
			t.Errorf("tool %s has no case in the access matrix", tl.Name)
		}
	}
	for _, r := range m.h.Web.Routes() {
		if !strings.HasPrefix(r.Path, api) && !strings.HasPrefix(r.Path, "/files/") && !strings.HasPrefix(r.Path, "/dsh-excalidraw") {
			continue
		}
		if strings.HasPrefix(r.Path, "/dsh-excalidraw/assets") || r.Method == http.MethodHead {
			continue // the editor's static files: covered by the page's own route
		}
		if !slices.ContainsFunc(routeCases, func(c routeCase) bool { return c.method == r.Method && routeMatches(r.Path, c.path) }) &&
			!(r.Method == "DELETE" && r.Path == api+"/mcp/tokens/:id") {
			t.Errorf("route %s %s has no case in the access matrix", r.Method, r.Path)
		}
	}

	for w := ownerP; w <= nobody; w++ {
		c := m.callers[w]
		for _, tc := range toolCases {
			want := verdict(w, tc.op)
			cells++
			if c.mcp == nil {
				if want != unauth {
					t.Errorf("%s has no MCP session but %s should be %q", w, tc.tool, want)
				}
				continue
			}
			args := m.fill(tc.args)
			before := m.snapshot()
			got, msg := m.callTool(c, tc.tool, args)
			m.judge(w, "tool "+tc.tool+" "+args, want, got, msg, before)
			if want != allow {
				denied++
			}
			m.reset()
		}
		for _, rc := range routeCases {
			want := verdict(w, rc.op)
			cells++
			path, body := m.fill(rc.path), m.fill(rc.body)
			if rc.method == "POST" && strings.HasSuffix(path, "/boards/alpha/restore") {
				m.must(map[string]string{"Authorization": "Bearer " + m.h.Token()}, "DELETE", api+"/boards/alpha", "", 200)
			}
			before := m.snapshot()
			got, msg := m.callRoute(c, rc.method, path, body, rc.stream)
			m.judge(w, rc.method+" "+path, want, got, msg, before)
			if want != allow {
				denied++
			}
			m.reset()
		}
		// DELETE /mcp/tokens/:id of a token that is not the caller's: as if
		// there were none (people), refused for the rest.
		cells++
		wantDel := nf
		if want := verdict(w, free); want == unauth {
			wantDel = unauth
		}
		before := m.snapshot()
		got, msg := m.callRoute(c, "DELETE", api+"/mcp/tokens/tok_000000000000", "", false)
		m.judge(w, "DELETE another's token", wantDel, got, msg, before)
		denied++
	}

	// Listings leave out what the caller does not reach.
	m.listing(otherBot, []string{"beta"}, []string{"alpha"})
	m.listing(editorBot, []string{"alpha"}, []string{"beta"})
	m.listing(editorP, []string{"alpha"}, []string{"beta"})
	m.listing(ownerP, []string{"alpha", "beta"}, nil)
	t.Logf("access matrix: %d callers × (%d tool calls + %d routes + 1) = %d cells, %d of them denied", nobody+1, len(toolCases), len(routeCases), cells, denied)
}

// routeMatches reports whether a concrete path is one of a route pattern.
func routeMatches(pattern, path string) bool {
	ps, cs := strings.Split(pattern, "/"), strings.Split(path, "/")
	for i, p := range ps {
		if p == "*" {
			return true
		}
		if i >= len(cs) {
			return false
		}
		if !strings.HasPrefix(p, ":") && p != cs[i] {
			return false
		}
	}
	return len(ps) == len(cs)
}

func newMatrix(t *testing.T) *matrix {
	t.Helper()
	data := t.TempDir()
	yaml := fmt.Sprintf("host:\n  listen: 127.0.0.1:0\n  dataDir: %s\n  owner: olga\n  log: {level: error, format: json}\n  http: {drainTimeout: 2s}\nplugins:\n  - {id: excalidraw, name: excalidraw}\n", data)
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(yaml)))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	m := &matrix{t: t, h: h, data: data, host: hosttest.Client(t), callers: map[who]*matrixCaller{}}
	hostAuth := map[string]string{"Authorization": "Bearer " + h.Token()}

	// People: erin and vic accept their invites.
	people := accounts.Open(accounts.File(data), accounts.Options{})
	for _, name := range []string{"erin", "vic"} {
		_, secret, err := people.Add(t.Context(), name, "", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := people.AcceptInvite(t.Context(), secret, "a long password for "+name); err != nil {
			t.Fatal(err)
		}
	}

	// Boards, with a baseline alpha holding what the tools work on.
	m.must(hostAuth, "POST", api+"/scenes", `{"name":"alpha","elements":[
		{"type":"rectangle","id":"seed","x":0,"y":0,"width":100,"height":60,"label":{"text":"hello"}},
		{"type":"rectangle","id":"seed2","x":200,"y":0,"width":100,"height":60}]}`, 201)
	hostMCP, _, _ := hosttest.MCP(t, h)
	res, err := hostMCP.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: "create_frame", Arguments: json.RawMessage(`{"name":"alpha","box":{"x":-50,"y":200,"width":400,"height":300},"frame_name":"Frame"}`)})
	if err != nil || res.IsError {
		t.Fatalf("create_frame: %v %+v", err, res)
	}
	var made struct {
		Frame string `json:"frame_id"`
	}
	_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &made)
	m.frame = made.Frame
	if res, err := hostMCP.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: "group_elements", Arguments: json.RawMessage(`{"name":"alpha","ids":["seed","seed2"]}`)}); err != nil || res.IsError {
		t.Fatalf("group_elements: %v %+v", err, res)
	}
	res, err = hostMCP.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: "create_diagram", Arguments: json.RawMessage(`{"name":"alpha","nodes":[{"id":"a"},{"id":"b"}],"edges":[{"from":"a","to":"b"}]}`)})
	if err != nil || res.IsError {
		t.Fatalf("create_diagram: %v %+v", err, res)
	}
	var drawn struct {
		Diagram string `json:"diagram"`
	}
	_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &drawn)
	m.diagram = drawn.Diagram
	m.must(hostAuth, "POST", api+"/scenes", `{"name":"beta"}`, 201)
	m.must(hostAuth, "PUT", api+"/boards/alpha/members/erin", `{"role":"editor"}`, 200)
	m.must(hostAuth, "PUT", api+"/boards/alpha/members/vic", `{"role":"viewer"}`, 200)
	m.must(hostAuth, "PUT", "/files/rooms/alpha/pic.bin", "picture", 201)
	m.must(hostAuth, "PUT", "/files/shareLinks/seed.bin", "shared", 201)
	var read struct {
		Scene json.RawMessage `json:"scene"`
	}
	_ = json.Unmarshal(m.must(hostAuth, "GET", api+"/scenes/alpha", "", 200), &read)
	m.baseline = string(read.Scene)
	_ = json.Unmarshal(m.must(hostAuth, "GET", api+"/scenes/beta", "", 200), &read)
	m.baseB = string(read.Scene)
	var log struct {
		Entries []struct{ Commit string } `json:"entries"`
	}
	_ = json.Unmarshal(m.must(hostAuth, "GET", api+"/scenes/alpha/log", "", 200), &log)
	m.commit = log.Entries[len(log.Entries)-1].Commit

	// Sessions: the owner's from a login link, erin's and vic's from the
	// password form; a second session of vic's, then expired by hand.
	link, err := h.LoginLink(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	m.callers[ownerP] = m.session(ownerP, func(c *http.Client) (*http.Response, error) { return c.Get(link) })
	login := func(name string) func(c *http.Client) (*http.Response, error) {
		return func(c *http.Client) (*http.Response, error) {
			req, _ := http.NewRequest("POST", h.URL()+"/login", strings.NewReader(url.Values{"name": {name}, "password": {"a long password for " + name}, "next": {"/"}}.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", h.URL())
			req.Header.Set("Sec-Fetch-Site", "same-origin")
			return c.Do(req)
		}
	}
	m.callers[editorP] = m.session(editorP, login("erin"))
	m.callers[viewerP] = m.session(viewerP, login("vic"))
	m.callers[expiredS] = m.session(expiredS, login("vic"))
	m.expire(m.callers[expiredS])

	// Bots: erin mints hers in the API, as the dialog does.
	erin := m.callers[editorP].headers
	m.callers[editorBot] = m.bot(editorBot, erin, `{"boards":["alpha"],"role":"editor","name":"erin-editor"}`)
	m.callers[viewerBot] = m.bot(viewerBot, erin, `{"boards":["alpha"],"role":"viewer","name":"erin-viewer"}`)
	m.callers[otherBot] = m.bot(otherBot, m.callers[ownerP].headers, `{"boards":["beta"],"role":"editor","name":"olga-beta"}`)
	rev := m.bot(revokedBot, erin, `{"boards":["alpha"],"role":"editor","name":"erin-revoked"}`)
	var toks struct {
		Tokens []struct{ ID, Name string } `json:"tokens"`
	}
	_ = json.Unmarshal(m.must(erin, "GET", api+"/mcp/tokens", "", 200), &toks)
	for _, tk := range toks.Tokens {
		if tk.Name == "erin-revoked" {
			m.must(erin, "DELETE", api+"/mcp/tokens/"+tk.ID, "", 200)
		}
	}
	m.callers[revokedBot] = rev
	m.callers[nobody] = &matrixCaller{w: nobody, headers: map[string]string{}}

	// MCP sessions, for those who can open one.
	for w, c := range m.callers {
		c.mcp = m.connect(w, c.headers)
	}
	return m
}

func (m *matrix) must(headers map[string]string, method, path, body string, status int) []byte {
	m.t.Helper()
	code, b := m.send(headers, method, path, body)
	if code != status {
		m.t.Fatalf("%s %s: %d %s", method, path, code, b)
	}
	return b
}

func (m *matrix) send(headers map[string]string, method, path, body string) (int, []byte) {
	m.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, m.h.URL()+path, rd)
	if err != nil {
		m.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
		if strings.HasPrefix(path, "/files/") {
			req.Header.Set("Content-Type", "application/octet-stream")
		}
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := m.host.Do(req)
	if err != nil {
		m.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// session signs a browser in and returns the caller its cookie makes
// (with the headers a same-origin page's requests carry).
func (m *matrix) session(w who, signIn func(*http.Client) (*http.Response, error)) *matrixCaller {
	m.t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Transport: m.host.Transport, Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := signIn(c)
	if err != nil {
		m.t.Fatal(err)
	}
	resp.Body.Close()
	u, _ := url.Parse(m.h.URL())
	var cookie string
	for _, ck := range jar.Cookies(u) {
		if ck.Name == "dsh_session" {
			cookie = ck.Name + "=" + ck.Value
		}
	}
	if cookie == "" {
		m.t.Fatalf("%s: signing in set no session cookie (%d)", w, resp.StatusCode)
	}
	return &matrixCaller{w: w, headers: map[string]string{"Cookie": cookie, "Origin": m.h.URL(), "Sec-Fetch-Site": "same-origin"}}
}

// expire makes the caller's session expired in the sessions file, as
// time would.
func (m *matrix) expire(c *matrixCaller) {
	m.t.Helper()
	secret := strings.TrimPrefix(c.headers["Cookie"], "dsh_session=")
	sum := sha256.Sum256([]byte(secret))
	hash := hex.EncodeToString(sum[:])
	path := filepath.Join(m.data, "sessions.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		m.t.Fatal(err)
	}
	var f map[string][]map[string]any
	if err := json.Unmarshal(raw, &f); err != nil {
		m.t.Fatal(err)
	}
	found := false
	for _, s := range f["sessions"] {
		if s["sha256"] == hash {
			s["expiresAt"] = time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
			found = true
		}
	}
	if !found {
		m.t.Fatal("the session to expire is not in the file")
	}
	out, _ := json.Marshal(f)
	if err := os.WriteFile(path, out, 0o600); err != nil {
		m.t.Fatal(err)
	}
}

// bot mints a connect token with the minter's session.
func (m *matrix) bot(w who, minter map[string]string, body string) *matrixCaller {
	m.t.Helper()
	var out struct{ Token string }
	if err := json.Unmarshal(m.must(minter, "POST", api+"/mcp/tokens", body, 201), &out); err != nil || out.Token == "" {
		m.t.Fatalf("%s: no token", w)
	}
	return &matrixCaller{w: w, headers: map[string]string{"Authorization": "Bearer " + out.Token}}
}

// connect opens an MCP session with the caller's headers, or nil when
// the host refuses one (which it must for exactly the unauthenticated).
func (m *matrix) connect(w who, headers map[string]string) *mcp.ClientSession {
	m.t.Helper()
	tr := &http.Transport{}
	m.t.Cleanup(tr.CloseIdleConnections)
	c := mcp.NewClient(&mcp.Implementation{Name: "matrix-" + strings.ReplaceAll(w.String(), " ", "-"), Version: "1"}, nil)
	s, err := c.Connect(hosttest.Context(m.t), &mcp.StreamableClientTransport{
		Endpoint: m.h.URL() + "/mcp", HTTPClient: &http.Client{Transport: dshtest.Headers{Set: headers, Base: tr}},
	}, nil)
	if verdict(w, free) == unauth {
		if err == nil {
			m.t.Errorf("%s opened an MCP session", w)
			_ = s.Close()
		} else if !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "unauthorized") {
			m.t.Errorf("%s: the MCP connect failed, but not as unauthorized: %v", w, err)
		}
		return nil
	}
	if err != nil {
		m.t.Fatalf("%s: MCP connect: %v", w, err)
	}
	m.t.Cleanup(func() { _ = s.Close() })
	return s
}

// fill substitutes the placeholders.
func (m *matrix) fill(s string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	m.n++
	hostAuth := map[string]string{"Authorization": "Bearer " + m.h.Token()}
	rev := func(name string) string {
		var head struct{ Revision int64 }
		_ = json.Unmarshal(m.must(hostAuth, "GET", api+"/scenes/"+name, "", 200), &head)
		return fmt.Sprint(head.Revision)
	}
	r := strings.NewReplacer("{{n}}", fmt.Sprint(m.n), "{{commit}}", m.commit, "{{baseline}}", m.baseline, "{{baselineB}}", m.baseB, "{{frame}}", m.frame, "{{diagram}}", m.diagram)
	s = r.Replace(s)
	if strings.Contains(s, "{{rev}}") {
		s = strings.ReplaceAll(s, "{{rev}}", rev("alpha"))
	}
	if strings.Contains(s, "{{revB}}") {
		s = strings.ReplaceAll(s, "{{revB}}", rev("beta"))
	}
	return s
}

// callTool calls a tool and returns the error code ("" for success).
func (m *matrix) callTool(c *matrixCaller, tool, args string) (string, string) {
	m.t.Helper()
	res, err := c.mcp.CallTool(hosttest.Context(m.t), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		return "transport", err.Error()
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var out struct {
		OK    *bool `json:"ok"`
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal([]byte(text), &out)
	if res.IsError {
		return out.Error.Code, out.Error.Message
	}
	return "", ""
}

// callRoute sends a request and returns its error code ("" below 400).
func (m *matrix) callRoute(c *matrixCaller, method, path, body string, stream bool) (string, string) {
	m.t.Helper()
	if stream {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, method, m.h.URL()+path, nil)
		for k, v := range c.headers {
			req.Header.Set(k, v)
		}
		resp, err := m.host.Do(req)
		if err != nil {
			m.t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		if resp.StatusCode < 400 {
			return "", ""
		}
		b, _ := io.ReadAll(resp.Body)
		return codeOf(resp.StatusCode, b), string(b)
	}
	status, b := m.send(c.headers, method, path, body)
	if status < 400 {
		return "", ""
	}
	return codeOf(status, b), string(b)
}

func codeOf(status int, b []byte) string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && e.Error.Code != "" {
		return e.Error.Code
	}
	return fmt.Sprintf("HTTP %d", status)
}

// judge holds a call to its verdict: an allowed call may fail for its
// own reasons but never as a refusal; a denied one is refused with the
// verdict's code and changed nothing.
func (m *matrix) judge(w who, what, want, got, msg string, before map[string]string) {
	m.t.Helper()
	refusal := got == pd || got == unauth || got == "invalid_token" || got == "HTTP 401" ||
		(got == nf && (strings.Contains(msg, "alpha does not exist") || strings.Contains(msg, "beta does not exist")))
	if want == allow {
		if refusal {
			m.t.Errorf("%s: %s was refused (%s: %s), want allowed", w, what, got, msg)
		} else if got != "" {
			m.t.Errorf("%s: %s is allowed but failed: %s: %s", w, what, got, msg)
		}
		return
	}
	ok := got == want || want == unauth && (got == "invalid_token" || got == "HTTP 401")
	if !ok {
		m.t.Errorf("%s: %s answered %q (%s), want %s", w, what, got, msg, want)
	}
	if after := m.snapshot(); !maps.Equal(before, after) {
		m.t.Errorf("%s: the refused %s changed the data directory: %v", w, what, diffKeys(before, after))
	}
}

func diffKeys(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if b[k] != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, "+"+k)
		}
	}
	return out
}

// snapshot is every file of the data directory by its SHA-256.
func (m *matrix) snapshot() map[string]string {
	m.t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(m.data, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		rel, _ := filepath.Rel(m.data, path)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		m.t.Fatal(err)
	}
	return out
}

// reset puts alpha back as it was (an allowed write may have changed or
// trashed it).
func (m *matrix) reset() {
	m.t.Helper()
	hostAuth := map[string]string{"Authorization": "Bearer " + m.h.Token()}
	m.send(hostAuth, "POST", api+"/boards/alpha/restore", "")
	// The baseline's elements with versions above the stored ones, so the
	// save puts them back (an older version of an element is not one).
	var cur, base struct {
		Scene map[string]json.RawMessage `json:"scene"`
	}
	_ = json.Unmarshal(m.must(hostAuth, "GET", api+"/scenes/alpha", "", 200), &cur)
	_ = json.Unmarshal([]byte(`{"scene":`+m.baseline+`}`), &base)
	var now, els []map[string]any
	_ = json.Unmarshal(cur.Scene["elements"], &now)
	_ = json.Unmarshal(base.Scene["elements"], &els)
	version := map[string]float64{}
	for _, e := range now {
		version[e["id"].(string)] = e["version"].(float64)
	}
	for _, e := range els {
		e["version"] = max(version[e["id"].(string)], e["version"].(float64)) + 1
	}
	for _, e := range now { // what a write added goes
		if !slices.ContainsFunc(els, func(b map[string]any) bool { return b["id"] == e["id"] }) {
			e["isDeleted"], e["version"] = true, e["version"].(float64)+1
			els = append(els, e)
		}
	}
	base.Scene["elements"], _ = json.Marshal(els)
	doc, _ := json.Marshal(base.Scene)
	m.resets++ // a request id of its own: a repeated one would be answered as a duplicate
	code, b := m.send(hostAuth, "PUT", api+"/scenes/alpha", `{"scene":`+string(doc)+`,"force":true,"request_id":"reset-`+fmt.Sprint(m.resets)+`"}`)
	if code != 200 {
		m.t.Fatalf("reset alpha: %d %s", code, b)
	}
}

// listing checks what a caller's board list and scene list show.
func (m *matrix) listing(w who, shows, hides []string) {
	m.t.Helper()
	c := m.callers[w]
	for _, path := range []string{api + "/scenes", api + "/boards"} {
		_, b := m.send(c.headers, "GET", path, "")
		for _, name := range shows {
			if !strings.Contains(string(b), `"name":"`+name+`"`) {
				m.t.Errorf("%s: %s leaves out %s: %s", w, path, name, b)
			}
		}
		for _, name := range hides {
			if strings.Contains(string(b), `"name":"`+name+`"`) {
				m.t.Errorf("%s: %s shows %s, which it does not reach", w, path, name)
			}
		}
	}
}
