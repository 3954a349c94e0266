package deploy_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/metrics"
	"github.com/dshgo/dsh/plugins/status"
)

// prometheusBin finds one of the programs of Debian's prometheus package
// (prometheus, promtool), which `make prometheus` installs.
func prometheusBin(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	testenv.Missing(t, name+" is not installed (Debian: apt-get install prometheus)")
	return ""
}

// localPrometheusConfig writes deploy/prometheus.yml into a folder of the
// test's, as written but for what compose gives: the rules are
// deploy/alerts.yml where it is (compose mounts it at
// /etc/prometheus/alerts.yml), and, when targets is not nil, the dsh job
// scrapes targets every interval. It returns the file's path.
func localPrometheusConfig(t *testing.T, targets []string, interval string) string {
	t.Helper()
	b, err := os.ReadFile("prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("prometheus.yml: %v", err)
	}
	rules, err := filepath.Abs("alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	if got := doc["rule_files"]; !strings.Contains(strings.TrimSpace(toYAML(t, got)), "/etc/prometheus/alerts.yml") {
		t.Fatalf("prometheus.yml loads rules %v, not alerts.yml where compose mounts it", got)
	}
	doc["rule_files"] = []string{rules}
	if targets != nil {
		global := doc["global"].(map[string]any)
		global["scrape_interval"], global["evaluation_interval"] = interval, interval
		jobs := doc["scrape_configs"].([]any)
		if len(jobs) != 1 {
			t.Fatalf("prometheus.yml has %d scrape jobs, want the dsh one", len(jobs))
		}
		jobs[0].(map[string]any)["static_configs"] = []any{map[string]any{"targets": targets}}
	}
	path := filepath.Join(t.TempDir(), "prometheus.yml")
	if err := os.WriteFile(path, []byte(toYAML(t, doc)), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func toYAML(t *testing.T, v any) string {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPromtoolChecksTheRecipe: Prometheus's own checker accepts
// prometheus.yml and alerts.yml, and the alerts' unit tests
// (alerts_test.yml) pass: each alert fires on the series it is about,
// after its `for`, with its labels and summary, and not on a healthy node.
func TestPromtoolChecksTheRecipe(t *testing.T) {
	promtool := prometheusBin(t, "promtool")
	for _, args := range [][]string{
		{"check", "rules", "alerts.yml"},
		{"test", "rules", "alerts_test.yml"},
		{"check", "config", localPrometheusConfig(t, nil, "")},
	} {
		if out, err := exec.Command(promtool, args...).CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// promResult is what Prometheus's HTTP API answers.
type promResult struct {
	Status    string `json:"status"`
	Error     string `json:"error"`
	ErrorType string `json:"errorType"`
	Data      struct {
		Result []json.RawMessage `json:"result"`
		Groups []struct {
			Rules []struct {
				Name      string `json:"name"`
				Health    string `json:"health"`
				LastError string `json:"lastError"`
			} `json:"rules"`
		} `json:"groups"`
	} `json:"data"`
}

// TestPrometheusScrapesANode runs a real Prometheus, configured as
// deploy/prometheus.yml is but for its target and a 1 s interval,
// against the metrics listener of a node configured as deploy/dsh.yaml
// is, on PostgreSQL. After two rounds of the traffic the dashboard shows,
// every query of the dashboard and of the alerting rules evaluates in
// Prometheus itself, each panel but the 5xx ratio (no request failed)
// shows this traffic, and every alerting rule evaluates without error.
func TestPrometheusScrapesANode(t *testing.T) {
	prom := prometheusBin(t, "prometheus")
	exprs := promQL(t)
	h := hosttest.New(t, dsh.WithPlugins(status.Plugin, excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(testNodeYAML(t, t.TempDir(), pgtest.DSN(t)))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	v, _ := h.Runtime.Service(metrics.ServiceName)
	addr := v.(*metrics.Service).Listening()
	if addr == nil {
		t.Fatal("the node has no metrics listener (host.metrics.listen)")
	}

	listen := freePort(t)
	var stderr dshtest.Buffer
	cmd := exec.Command(prom,
		"--config.file="+localPrometheusConfig(t, []string{addr.String()}, "1s"),
		"--storage.tsdb.path="+t.TempDir(),
		"--web.listen-address=127.0.0.1:"+listen,
		"--log.level=warn")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	c := hosttest.Client(t)
	api := func(path string, q url.Values) promResult {
		t.Helper()
		r := hosttest.Send(t, c, http.MethodGet, "http://127.0.0.1:"+listen+path+"?"+q.Encode(), "")
		var out promResult
		if err := json.Unmarshal([]byte(r.Body), &out); err != nil {
			t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
		}
		return out
	}
	query := func(expr string) promResult {
		t.Helper()
		return api("/api/v1/query", url.Values{"query": {expr}})
	}
	// await polls Prometheus until expr has a result (Prometheus is up,
	// and has scraped what expr asks for).
	await := func(what, expr string) {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		for {
			if r, err := http.Get("http://127.0.0.1:" + listen + "/-/ready"); err == nil {
				r.Body.Close()
				if r.StatusCode == http.StatusOK && len(query(expr).Data.Result) > 0 {
					return
				}
			}
			if time.Now().After(deadline) || cmd.ProcessState != nil {
				t.Fatalf("Prometheus never saw %s (%s): %s", what, expr, dshtest.Tail(stderr.String(), 20))
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	await("the node up", `up{job="dsh"} == 1`)

	// Counters Prometheus first sees at 1 have not risen in its eyes: a
	// second round after a scrape of the first makes every rate move.
	nodeTraffic(t, h, "prom-1")
	await("the first round", `dsh_excalidraw_commits_total{kind="create",outcome="ok"} >= 1`)
	nodeTraffic(t, h, "prom-2")
	await("the second round", `increase(dsh_excalidraw_renders_total{format="png",outcome="ok"}[5m]) > 0`)
	await("the second round's conflict", `increase(dsh_excalidraw_revision_conflicts_total[5m]) > 0`)

	names := make([]string, 0, len(exprs))
	for where := range exprs {
		names = append(names, where)
	}
	sort.Strings(names)
	for _, where := range names {
		expr := exprs[where]
		if where == "docs/operations.md" {
			continue // a list of names, not a query
		}
		r := query(expr)
		if r.Status != "success" {
			t.Errorf("%s does not evaluate in Prometheus: %s %s: %s", where, r.ErrorType, r.Error, expr)
			continue
		}
		// A panel shows this traffic; the 5xx ratio has nothing to show
		// (no request failed), and an alert is quiet on a healthy node.
		if strings.HasPrefix(where, "dashboard ") && !strings.Contains(expr, `code=~"5.."`) && len(r.Data.Result) == 0 {
			t.Errorf("%s shows nothing after the node's traffic: %s", where, expr)
		}
	}

	// Every alerting rule loaded and evaluated without error.
	deadline := time.Now().Add(90 * time.Second)
	for {
		rules := api("/api/v1/rules", url.Values{"type": {"alert"}})
		var pending, bad []string
		n := 0
		for _, g := range rules.Data.Groups {
			for _, r := range g.Rules {
				n++
				switch r.Health {
				case "ok":
				case "unknown":
					pending = append(pending, r.Name)
				default:
					bad = append(bad, r.Name+": "+r.LastError)
				}
			}
		}
		if len(bad) > 0 {
			t.Fatalf("alerting rules fail to evaluate: %v", bad)
		}
		if n == 0 {
			t.Fatalf("Prometheus loaded no alerting rules: %+v", rules)
		}
		if len(pending) == 0 {
			t.Logf("%d alerting rules evaluate; %d queries checked", n, len(names)-1)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("alerting rules never evaluated: %v", pending)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
