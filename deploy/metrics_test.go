package deploy_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/metrics/metricstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"
	"go.yaml.in/yaml/v3"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/status"
)

// testNodeYAML is deploy/dsh.yaml for a test: on loopback ports the
// system picks, on dataDir, with the DSN written in and quiet logs;
// everything else (plugins, proxy, metrics) as deployed.
func testNodeYAML(t *testing.T, dataDir, dsn string) string {
	t.Helper()
	b, err := os.ReadFile("dsh.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	host := doc["host"].(map[string]any)
	host["listen"] = "127.0.0.1:0"
	host["dataDir"] = dataDir
	host["store"].(map[string]any)["dsn"] = dsn
	host["metrics"].(map[string]any)["listen"] = "127.0.0.1:0"
	host["log"] = map[string]any{"level": "error", "format": "json"}
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// promQL is every PromQL expression of the dashboard's panels and of the
// alerting rules.
func promQL(t *testing.T) map[string]string {
	t.Helper()
	exprs := map[string]string{}
	b, err := os.ReadFile("grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatalf("grafana-dashboard.json: %v", err)
	}
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for i, tg := range p.Targets {
			exprs["dashboard "+p.Title+" #"+string(rune('A'+i))] = tg.Expr
		}
	}
	var titles []string
	for _, p := range dash.Panels {
		titles = append(titles, p.Title)
	}
	for _, want := range []string{"Request rate", "Errors", "Latency (p95)", "Saves", "Conflicts", "Live users"} {
		if !slices.Contains(titles, want) {
			t.Errorf("the dashboard has no %q panel (has %v)", want, titles)
		}
	}

	b, err = os.ReadFile("alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Groups []struct {
			Rules []struct {
				Alert, Expr, For string
				Labels           map[string]string
				Annotations      map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(b, &rules); err != nil {
		t.Fatalf("alerts.yml: %v", err)
	}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" || r.Expr == "" || r.Labels["severity"] == "" || r.Annotations["summary"] == "" {
				t.Errorf("alert %+v lacks a name, expression, severity or summary", r)
			}
			exprs["alert "+r.Alert] = r.Expr
		}
	}
	// The metrics docs/operations.md names, as one list.
	exprs["docs/operations.md"] = strings.Join(metricName.FindAllString(operationsDoc(t), -1), " ")
	return exprs
}

// metricName finds the metric names in PromQL, loosely: identifiers
// with the prefixes the host's metrics have (dsh_, go_, process_) that do
// not stand inside a quoted label value.
var metricName = regexp.MustCompile(`"[^"]*"|\b(?:dsh|go|process)_[a-zA-Z0-9_]+\b`)

// exported says whether a scrape holds name: a family, or the _bucket,
// _sum or _count series of a histogram family.
func exported(fams map[string]*dto.MetricFamily, name string) bool {
	if fams[name] != nil {
		return true
	}
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suffix); ok {
			if f := fams[base]; f != nil && f.GetType() == dto.MetricType_HISTOGRAM {
				return true
			}
		}
	}
	return false
}

// TestDashboardQueriesUseExportedMetrics runs a host on PostgreSQL with
// deploy/dsh.yaml's plugins and settings, makes real MCP tool calls (a
// create, a write, a stale write, a render) and a save over HTTP, scrapes
// GET /metrics, and finds every metric the dashboard and the alerting
// rules query among what the host exports. The image's health check
// (deploy/probe) passes on that host's /healthz and fails elsewhere.
func TestDashboardQueriesUseExportedMetrics(t *testing.T) {
	exprs := promQL(t)
	h := hosttest.New(t, dsh.WithPlugins(status.Plugin, excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(testNodeYAML(t, t.TempDir(), pgtest.DSN(t)))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	nodeTraffic(t, h, "deploy")
	c := hosttest.Client(t)
	fams := metricstest.Scrape(t, c, h.URL()+"/metrics", h.Token())
	used := 0
	for where, expr := range exprs {
		names := 0
		for _, m := range metricName.FindAllString(expr, -1) {
			if strings.HasPrefix(m, `"`) {
				continue
			}
			names++
			if !exported(fams, m) {
				t.Errorf("%s queries %s, which the host does not export", where, m)
			}
		}
		if names == 0 && !strings.Contains(expr, "up{") {
			t.Errorf("%s names no metric: %s", where, expr)
		}
		used += names
	}
	t.Logf("%d queries, %d metric names checked", len(exprs), used)

	probe := buildProbe(t)
	if out, err := exec.Command(probe, h.URL()+"/healthz").CombinedOutput(); err != nil {
		t.Errorf("dsh-probe on /healthz: %v %s", err, out)
	}
	if out, err := exec.Command(probe, h.URL()+"/no-such-page").CombinedOutput(); err == nil {
		t.Errorf("dsh-probe passed on a 404: %s", out)
	}
}

// nodeTraffic makes the traffic the dashboard shows on h, on a new board
// named board: over MCP a create, a write, a stale write and a render,
// and over HTTP an editor's save.
func nodeTraffic(t *testing.T, h *dsh.Host, board string) {
	t.Helper()
	sess, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	call := func(name, args string) string {
		t.Helper()
		res, err := sess.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var out strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				out.WriteString(tc.Text)
			}
		}
		return out.String()
	}
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
	c := hosttest.Client(t)
	bearer := []string{"Authorization", "Bearer " + h.Token()}
	saved := hosttest.Send(t, c, http.MethodPut, h.URL()+"/dsh-excalidraw/api/scenes/"+board,
		`{"scene":{"type":"excalidraw","version":2,"elements":[],"appState":{}},"expected_revision":2,"request_id":"`+board+`-save"}`,
		append(bearer, "Content-Type", "application/json")...)
	if saved.Status != http.StatusOK || !strings.Contains(saved.Body, `"revision":3`) {
		t.Fatalf("save: %d %s", saved.Status, saved.Body)
	}
}

// buildProbe compiles deploy/probe, the image's health check.
func buildProbe(t *testing.T) string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	bin := filepath.Join(t.TempDir(), "dsh-probe")
	if out, err := exec.Command(goBin, "build", "-o", bin, "./probe").CombinedOutput(); err != nil {
		t.Fatalf("go build ./probe: %v\n%s", err, out)
	}
	return bin
}
