package excalidraw_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/admin"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/quota"
	"github.com/dshgo/dsh/plugins/excalidraw/room/roomcheck"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/metrics/metricstest"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// scrape reads h's GET /metrics with its host token and parses the
// exposition.
func scrape(t *testing.T, h *dsh.Host) metricstest.Families {
	t.Helper()
	return metricstest.Scrape(t, hosttest.Client(t), h.URL()+"/metrics", h.Token())
}

// sample is the metric of family name whose labels include want, or nil.
func sample(fams map[string]*dto.MetricFamily, name string, want map[string]string) *dto.Metric {
	return metricstest.Families(fams).Sample(name, want)
}

// counter is the value of a counter or gauge sample (0 when absent).
func counter(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	m := sample(fams, name, want)
	switch {
	case m == nil:
		return 0
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	}
	return 0
}

// observations is a histogram sample's count (0 when absent).
func observations(fams map[string]*dto.MetricFamily, name string, want map[string]string) uint64 {
	if m := sample(fams, name, want); m != nil && m.Histogram != nil {
		return m.Histogram.GetSampleCount()
	}
	return 0
}

func metricsHost(t *testing.T) *dsh.Host {
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw}\n"))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestMetricsMoveWithToolCallsAndSaves scrapes GET /metrics after real
// MCP tool calls (a create, a write, a stale write, a render), a save
// over HTTP and an unknown tool, and finds each counted under bounded
// labels: no board name anywhere.
func TestMetricsMoveWithToolCallsAndSaves(t *testing.T) {
	h := metricsHost(t)
	sess, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	call := func(name, args string) string {
		t.Helper()
		res, err := sess.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				return tc.Text
			}
		}
		return ""
	}
	before := scrape(t, h)
	if counter(before, "dsh_mcp_sessions_open", nil) < 1 {
		t.Fatalf("dsh_mcp_sessions_open = %v, want this test's session counted", counter(before, "dsh_mcp_sessions_open", nil))
	}
	if before["go_goroutines"] == nil || before["process_cpu_seconds_total"] == nil {
		t.Fatal("no Go runtime or process metrics")
	}

	const board = "secret-board-name"
	if out := call("excalidraw_scene_create", `{"name":"`+board+`","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":60}]}`); !strings.Contains(out, `"revision":1`) {
		t.Fatalf("create: %s", out)
	}
	if out := call("excalidraw_scene_apply", `{"name":"`+board+`","expected_revision":1,"operations":[{"op":"update","id":"a","patch":{"x":50}}]}`); !strings.Contains(out, `"revision":2`) {
		t.Fatalf("apply: %s", out)
	}
	if out := call("excalidraw_scene_apply", `{"name":"`+board+`","expected_revision":1,"operations":[{"op":"delete","id":"a"}]}`); !strings.Contains(out, "revision_conflict") {
		t.Fatalf("stale apply: %s", out)
	}
	if out := call("render", `{"name":"`+board+`"}`); strings.Contains(out, `"ok":false`) {
		t.Fatalf("render: %s", out)
	}
	// The browser's save: PUT the scene back at its revision.
	c := hosttest.Client(t)
	bearer := []string{"Authorization", "Bearer " + h.Token()}
	got := hosttest.Send(t, c, http.MethodGet, h.URL()+"/dsh-excalidraw/api/scenes/"+board, "", bearer...)
	var read struct{ Scene json.RawMessage }
	if err := json.Unmarshal([]byte(got.Body), &read); err != nil || got.Status != 200 {
		t.Fatalf("GET scene: %d %s", got.Status, got.Body)
	}
	edited := strings.Replace(string(read.Scene), `"x":50`, `"x":70`, 1)
	if edited == string(read.Scene) {
		t.Fatalf("no x of 50 in %s", read.Scene)
	}
	saved := hosttest.Send(t, c, http.MethodPut, h.URL()+"/dsh-excalidraw/api/scenes/"+board,
		`{"scene":`+edited+`,"expected_revision":2,"request_id":"save-1"}`, append(bearer, "Content-Type", "application/json")...)
	if saved.Status != http.StatusOK || !strings.Contains(saved.Body, `"revision":3`) {
		t.Fatalf("save: %d %s", saved.Status, saved.Body)
	}
	// The same save again (its request id): a replay, answered with its result.
	replay := hosttest.Send(t, c, http.MethodPut, h.URL()+"/dsh-excalidraw/api/scenes/"+board,
		`{"scene":`+edited+`,"expected_revision":2,"request_id":"save-1"}`, append(bearer, "Content-Type", "application/json")...)
	if replay.Status != http.StatusOK || !strings.Contains(replay.Body, `"duplicate":true`) {
		t.Fatalf("replayed save: %d %s", replay.Status, replay.Body)
	}
	stale := hosttest.Send(t, c, http.MethodPut, h.URL()+"/dsh-excalidraw/api/scenes/"+board,
		`{"scene":{"type":"excalidraw","version":2,"elements":[],"appState":{}},"expected_revision":1,"request_id":"save-2"}`, append(bearer, "Content-Type", "application/json")...)
	if stale.Status != http.StatusConflict || stale.Code != "revision_conflict" {
		t.Fatalf("stale save: %d %s", stale.Status, stale.Body)
	}
	if res := h.Tools.Call(hosttest.Context(t), "no_such_tool_"+board, nil); res.OK {
		t.Fatal("an unknown tool answered")
	}

	after := scrape(t, h)
	moved := func(name string, labels map[string]string, want float64) {
		t.Helper()
		if d := counter(after, name, labels) - counter(before, name, labels); d != want {
			t.Errorf("%s%v moved by %v, want %v", name, labels, d, want)
		}
	}
	timed := func(name string, labels map[string]string, atLeast uint64) {
		t.Helper()
		if d := observations(after, name, labels) - observations(before, name, labels); d < atLeast {
			t.Errorf("%s%v observed %d times, want at least %d", name, labels, d, atLeast)
		}
	}
	moved("dsh_tool_calls_total", map[string]string{"tool": "excalidraw_scene_create", "outcome": "ok"}, 1)
	moved("dsh_tool_calls_total", map[string]string{"tool": "excalidraw_scene_apply", "outcome": "ok"}, 1)
	moved("dsh_tool_calls_total", map[string]string{"tool": "excalidraw_scene_apply", "outcome": "revision_conflict"}, 1)
	moved("dsh_tool_calls_total", map[string]string{"tool": "render", "outcome": "ok"}, 1)
	moved("dsh_tool_calls_total", map[string]string{"tool": "unknown", "outcome": "unknown_tool"}, 1)
	timed("dsh_tool_call_duration_seconds", map[string]string{"tool": "excalidraw_scene_apply", "outcome": "ok"}, 1)

	moved("dsh_excalidraw_commits_total", map[string]string{"kind": "create", "outcome": "ok"}, 1)
	moved("dsh_excalidraw_commits_total", map[string]string{"kind": "update", "outcome": "ok"}, 1)
	moved("dsh_excalidraw_commits_total", map[string]string{"kind": "save", "outcome": "ok"}, 1)
	moved("dsh_excalidraw_commits_total", map[string]string{"kind": "save", "outcome": "duplicate"}, 1)
	moved("dsh_excalidraw_commits_total", map[string]string{"kind": "save", "outcome": "revision_conflict"}, 1)
	// The stale apply is refused from the head, the stale save by the store.
	moved("dsh_excalidraw_revision_conflicts_total", nil, 2)
	timed("dsh_excalidraw_commit_duration_seconds", map[string]string{"kind": "update"}, 1)
	timed("dsh_excalidraw_commit_duration_seconds", map[string]string{"kind": "save"}, 3)
	for _, phase := range []string{"lock", "write", "fsync", "rename", "journal"} {
		timed("dsh_excalidraw_commit_phase_seconds", map[string]string{"phase": phase}, 3) // create, apply, save
	}
	timed("dsh_excalidraw_lock_wait_seconds", map[string]string{"outcome": "acquired"}, 3)
	moved("dsh_excalidraw_renders_total", map[string]string{"format": "png", "outcome": "ok"}, 1)
	timed("dsh_excalidraw_render_duration_seconds", map[string]string{"format": "png"}, 1)

	// HTTP by route pattern, never the path with the board's name in it.
	moved("dsh_http_requests_total", map[string]string{"route": "/dsh-excalidraw/api/scenes/:name", "method": "PUT", "code": "200"}, 2)
	moved("dsh_http_requests_total", map[string]string{"route": "/dsh-excalidraw/api/scenes/:name", "method": "PUT", "code": "409"}, 1)
	moved("dsh_http_requests_total", map[string]string{"route": "/dsh-excalidraw/api/scenes/:name", "method": "GET", "code": "200"}, 1)
	timed("dsh_http_request_duration_seconds", map[string]string{"route": "/dsh-excalidraw/api/scenes/:name", "method": "PUT", "class": "2xx"}, 1)
	if counter(after, "dsh_http_requests_total", map[string]string{"route": "/metrics", "method": "GET", "code": "200"}) < 1 {
		t.Error("the first scrape is not counted under route /metrics")
	}
	for name, f := range after {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), board) || strings.Contains(l.GetValue(), h.Token()) {
					t.Errorf("%s has label %s=%q", name, l.GetName(), l.GetValue())
				}
			}
		}
	}
}

// TestMetricsOfCommitsOnPostgreSQL: on the shared database, real writes
// (a create, a tool's write, a save) time PostgreSQL's commit phases
// under the same metric as the file store's (begin, lock, read, write,
// commit: lock, read only for writes to an existing scene) and their
// lock waits, none with a board's name.
func TestMetricsOfCommitsOnPostgreSQL(t *testing.T) {
	yaml := hosttest.ConfigYAML(t.TempDir(), "  store: {kind: postgres, dsn: '"+pgtest.DSN(t)+"'}\n",
		`  - {id: excalidraw, name: excalidraw, config: {exports: {secret: "metrics-test-secret-0123456789abcdefgh"}}}`+"\n")
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(yaml)))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	before := scrape(t, h)
	const board = "pg-secret-board"
	if res := h.Tools.Call(hosttest.Context(t), "excalidraw_scene_create", json.RawMessage(`{"name":"`+board+`","elements":[{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":60}]}`)); !res.OK {
		t.Fatalf("create: %s", res.JSON)
	}
	if res := h.Tools.Call(hosttest.Context(t), "excalidraw_scene_apply", json.RawMessage(`{"name":"`+board+`","expected_revision":1,"operations":[{"op":"update","id":"a","patch":{"x":50}}]}`)); !res.OK {
		t.Fatalf("apply: %s", res.JSON)
	}
	c := hosttest.Client(t)
	bearer := []string{"Authorization", "Bearer " + h.Token()}
	got := hosttest.Send(t, c, http.MethodGet, h.URL()+"/dsh-excalidraw/api/scenes/"+board, "", bearer...)
	var read struct{ Scene json.RawMessage }
	if err := json.Unmarshal([]byte(got.Body), &read); err != nil || got.Status != http.StatusOK {
		t.Fatalf("GET scene: %d %s", got.Status, got.Body)
	}
	saved := hosttest.Send(t, c, http.MethodPut, h.URL()+"/dsh-excalidraw/api/scenes/"+board,
		`{"scene":`+strings.Replace(string(read.Scene), `"x":50`, `"x":70`, 1)+`,"expected_revision":2}`, append(bearer, "Content-Type", "application/json")...)
	if saved.Status != http.StatusOK || !strings.Contains(saved.Body, `"revision":3`) {
		t.Fatalf("save: %d %s", saved.Status, saved.Body)
	}
	after := scrape(t, h)
	timed := func(name string, labels map[string]string, atLeast uint64) {
		t.Helper()
		if d := observations(after, name, labels) - observations(before, name, labels); d < atLeast {
			t.Errorf("%s%v observed %d times, want at least %d", name, labels, d, atLeast)
		}
	}
	for phase, n := range map[string]uint64{"begin": 3, "write": 3, "commit": 3, "lock": 2, "read": 2} {
		timed("dsh_excalidraw_commit_phase_seconds", map[string]string{"phase": phase}, n)
	}
	for _, phase := range []string{"fsync", "rename", "journal"} { // the file store's
		if d := observations(after, "dsh_excalidraw_commit_phase_seconds", map[string]string{"phase": phase}); d != 0 {
			t.Errorf("phase %s observed %d times on PostgreSQL", phase, d)
		}
	}
	timed("dsh_excalidraw_lock_wait_seconds", map[string]string{"outcome": "acquired"}, 2)
	for name, f := range after {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), board) {
					t.Errorf("%s has label %s=%q", name, l.GetName(), l.GetValue())
				}
			}
		}
	}
}

// TestMetricsAreForAdmins: GET /metrics without a credential is 401, with
// a connect token (even the owner's bot's) 403 admin_required, in the
// error contract's shape; never the exposition.
func TestMetricsAreForAdmins(t *testing.T) {
	h := metricsHost(t)
	c := hosttest.Client(t)
	if r := hosttest.Send(t, c, http.MethodGet, h.URL()+"/metrics", ""); r.Status != http.StatusUnauthorized || strings.Contains(r.Body, "go_goroutines") {
		t.Fatalf("no credential: %d %s", r.Status, r.Body)
	}
	owner, ok, err := h.Connection.Accounts().Owner(t.Context())
	if err != nil || !ok {
		t.Fatalf("owner: %v %v", ok, err)
	}
	bot, _, err := h.Connection.Tokens().Mint(t.Context(), connection.TokenSpec{Name: "owner-bot", Person: owner.ID,
		Grant: identity.NewGrant(map[string]any{"role": identity.RoleEditor})})
	if err != nil {
		t.Fatal(err)
	}
	r := hosttest.Send(t, c, http.MethodGet, h.URL()+"/metrics", "", "Authorization", "Bearer "+bot)
	if r.Status != http.StatusForbidden || r.Code != admin.CodeAdminRequired || strings.Contains(r.Body, "go_goroutines") {
		t.Fatalf("a connect token: %d %s %s", r.Status, r.Code, r.Body)
	}
}

// TestMetricsFollowThePlugin: reloading the Excalidraw plugin registers
// its collectors again without a duplicate-registration error (and the
// new ones count); unloading it takes them out of the scrape.
func TestMetricsFollowThePlugin(t *testing.T) {
	h := metricsHost(t)
	if scrape(t, h)["dsh_excalidraw_live_subscribers"] == nil {
		t.Fatal("the plugin's metrics are not scraped")
	}
	for range 2 {
		if err := h.ReloadPlugin(hosttest.Context(t), "excalidraw"); err != nil {
			t.Fatalf("reload: %v", err)
		}
		if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
			t.Fatalf("after reload: %v", err)
		}
	}
	if res := h.Tools.Call(hosttest.Context(t), "excalidraw_scene_create", json.RawMessage(`{"name":"after-reload","elements":[]}`)); !res.OK {
		t.Fatalf("create: %s", res.JSON)
	}
	if n := counter(scrape(t, h), "dsh_excalidraw_commits_total", map[string]string{"kind": "create", "outcome": "ok"}); n != 1 {
		t.Fatalf("commits after reload = %v, want 1", n)
	}
	if err := h.UnloadPlugin(hosttest.Context(t), "excalidraw"); err != nil {
		t.Fatal(err)
	}
	for name := range scrape(t, h) {
		if strings.HasPrefix(name, "dsh_excalidraw_") {
			t.Errorf("%s is still scraped after unload", name)
		}
	}
	if err := h.LoadPlugin(hosttest.Context(t), "excalidraw"); err != nil {
		t.Fatalf("load again: %v", err)
	}
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	if scrape(t, h)["dsh_excalidraw_commits_total"] == nil && scrape(t, h)["dsh_excalidraw_live_subscribers"] == nil {
		t.Fatal("the plugin's metrics are missing after loading it again")
	}
}

// TestMetricsCountQuotaRefusals: a bot creating boards past its hourly
// limit is refused (rate_limited), and the refusal is counted by limit
// and by the tool's outcome.
func TestMetricsCountQuotaRefusals(t *testing.T) {
	h := metricsHost(t)
	owner, ok, err := h.Connection.Accounts().Owner(t.Context())
	if err != nil || !ok {
		t.Fatalf("owner: %v %v", ok, err)
	}
	token, _, err := h.Connection.Tokens().Mint(t.Context(), connection.TokenSpec{Name: "maker", Person: owner.ID,
		Grant: identity.NewGrant(map[string]any{"role": identity.RoleEditor, "canCreateBoards": true})})
	if err != nil {
		t.Fatal(err)
	}
	sess := hosttest.MCPWithToken(t, h, token)
	before := scrape(t, h)
	refused := 0
	for i := range quota.CreateBoard.Limit + 1 {
		res, err := sess.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: "excalidraw_scene_create",
			Arguments: map[string]any{"name": fmt.Sprintf("b%d", i), "elements": []any{}}})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			refused++
		}
	}
	if refused != 1 {
		t.Fatalf("%d creates refused, want 1", refused)
	}
	after := scrape(t, h)
	for _, c := range []struct {
		name   string
		labels map[string]string
	}{
		{"dsh_excalidraw_quota_refusals_total", map[string]string{"limit": quota.CreateBoard.Name}},
		{"dsh_tool_calls_total", map[string]string{"tool": "excalidraw_scene_create", "outcome": "rate_limited"}},
	} {
		if d := counter(after, c.name, c.labels) - counter(before, c.name, c.labels); d != 1 {
			t.Errorf("%s%v moved by %v, want 1", c.name, c.labels, d)
		}
	}
}

// TestMetricsCountPresence: a stock room client in a board's live room
// is one socket present, and the room follows the board (one live
// subscriber more).
func TestMetricsCountPresence(t *testing.T) {
	roomcheck.NeedNode(t)
	h := metricsHost(t)
	if res := h.Tools.Call(hosttest.Context(t), "excalidraw_scene_create", json.RawMessage(`{"name":"plan","elements":[]}`)); !res.OK {
		t.Fatalf("create: %s", res.JSON)
	}
	r := hosttest.Send(t, hosttest.Client(t), http.MethodGet, h.URL()+"/dsh-excalidraw/api/scenes/plan/room", "", "Authorization", "Bearer "+h.Token())
	var info struct{ Link string }
	if err := json.Unmarshal([]byte(r.Body), &info); err != nil || info.Link == "" {
		t.Fatalf("room: %d %s", r.Status, r.Body)
	}
	before := scrape(t, h)
	if counter(before, "dsh_excalidraw_live_present", nil) != 0 {
		t.Fatal("someone is present before anyone joined")
	}
	ann := roomcheck.Join(t, "ann", h.URL(), info.Link, h.Token())
	ann.Await("room-user-change", func(e roomcheck.Event) bool { return e.Ev == "room-user-change" })
	after := scrape(t, h)
	if n := counter(after, "dsh_excalidraw_live_present", nil); n != 1 {
		t.Fatalf("dsh_excalidraw_live_present = %v, want 1", n)
	}
	if d := counter(after, "dsh_excalidraw_live_subscribers", nil) - counter(before, "dsh_excalidraw_live_subscribers", nil); d != 1 {
		t.Fatalf("dsh_excalidraw_live_subscribers moved by %v, want 1 (the room following its board)", d)
	}
}
