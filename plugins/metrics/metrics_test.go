package metrics_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/metrics/metricstest"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/metrics"
)

// TestRegisterIsAllOrNone: a set of collectors one of which is already
// registered adds none of them, and unregistering frees their names for
// the next (a plugin's reload).
func TestRegisterIsAllOrNone(t *testing.T) {
	s := metrics.New()
	c := func(name string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: name})
	}
	undo, err := s.Register(c("dsh_a_total"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Register(c("dsh_b_total"), c("dsh_a_total")); err == nil {
		t.Fatal("a duplicate was registered")
	}
	if _, err := s.Register(c("dsh_b_total")); err != nil {
		t.Fatalf("dsh_b_total was left registered by the failed call: %v", err)
	}
	undo()
	if _, err := s.Register(c("dsh_a_total")); err != nil {
		t.Fatalf("again after unregistering: %v", err)
	}
}

// TestMetricsListen: host.metrics.listen serves GET /metrics alone,
// without a credential, beside the host's address, where /metrics still
// wants an admin; an address that is none is refused by the schema.
func TestMetricsListen(t *testing.T) {
	h := hosttest.New(t, dsh.WithConfigYAML([]byte(hosttest.ConfigYAML(t.TempDir(), "  metrics: {listen: 127.0.0.1:0}\n", ""))))
	v, _ := h.Runtime.Service(metrics.ServiceName)
	addr := v.(*metrics.Service).Listening()
	if addr == nil {
		t.Fatal("no metrics listener")
	}
	h.Tools.Call(hosttest.Context(t), "nothing", nil)
	c := hosttest.Client(t)
	fams := metricstest.Scrape(t, c, "http://"+addr.String()+"/metrics", "")
	if fams["dsh_tool_calls_total"] == nil || fams["go_goroutines"] == nil {
		t.Fatalf("scrape: %v", fams)
	}
	if r := hosttest.Send(t, c, http.MethodGet, "http://"+addr.String()+"/mcp", ""); r.Status != http.StatusNotFound {
		t.Fatalf("GET /mcp on the metrics address: %d", r.Status)
	}
	if r := hosttest.Send(t, c, http.MethodGet, h.URL()+"/metrics", ""); r.Status != http.StatusUnauthorized {
		t.Fatalf("GET /metrics on the host's address without a credential: %d", r.Status)
	}
	if _, err := dsh.LoadConfig(dsh.ConfigSource{YAML: []byte(hosttest.ConfigYAML(t.TempDir(), "  metrics: {listen: http://x/metrics}\n", ""))}); err == nil || !strings.Contains(err.Error(), "metrics") {
		t.Fatalf("a listen address that is a URL: %v", err)
	}
}

// TestPostgresPoolMetrics: a host on PostgreSQL exports its pool's
// connections and acquisitions.
func TestPostgresPoolMetrics(t *testing.T) {
	h := hosttest.New(t, dsh.WithConfigYAML([]byte(hosttest.ConfigYAML(t.TempDir(), "  store: {kind: postgres, dsn: '"+pgtest.DSN(t)+"'}\n", ""))))
	fams := metricstest.Scrape(t, hosttest.Client(t), h.URL()+"/metrics", h.Token())
	value := func(name string) float64 {
		f := fams[name]
		if f == nil || len(f.GetMetric()) == 0 {
			t.Fatalf("no %s", name)
		}
		m := f.GetMetric()[0]
		if m.Counter != nil {
			return m.Counter.GetValue()
		}
		return m.Gauge.GetValue()
	}
	if value("dsh_pg_pool_max_connections") < 1 || value("dsh_pg_pool_acquires_total") < 1 {
		t.Fatalf("pool: max %v, acquires %v", value("dsh_pg_pool_max_connections"), value("dsh_pg_pool_acquires_total"))
	}
	if len(fams["dsh_pg_pool_connections"].GetMetric()) != 3 {
		t.Fatalf("dsh_pg_pool_connections: %v", fams["dsh_pg_pool_connections"])
	}
}
