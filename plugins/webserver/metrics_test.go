package webserver

import (
	"net/http"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"strings"
)

// TestRequestMetricsLabels: requests are counted under the route's
// pattern, never the path; a path no route takes is "unmatched", a
// method that is no standard one "other"; errors count with the status
// the client got.
func TestRequestMetricsLabels(t *testing.T) {
	s := startServer(t, Config{}, admitAll)
	reg := prometheus.NewRegistry()
	if err := s.Instrument(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mount("test",
		Route{Method: http.MethodGet, Path: "/boards/:name", Handler: func(c echo.Context) error { return c.String(200, c.Param("name")) }},
		Route{Method: AnyMethod, Path: "/any", Handler: func(c echo.Context) error { return NewError(http.StatusTeapot, "teapot", "no") }},
	); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	send := func(method, path string) {
		req, _ := http.NewRequest(method, "http://"+s.Addr().String()+path, nil)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	send(http.MethodGet, "/boards/secret-one")
	send(http.MethodGet, "/boards/secret-two")
	send(http.MethodGet, "/nowhere/secret")
	send("BREW", "/any")

	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]float64{} // family → label values → count
	for _, f := range fams {
		got[f.GetName()] = map[string]float64{}
		for _, m := range f.GetMetric() {
			var vals []string
			for _, l := range m.GetLabel() {
				vals = append(vals, l.GetName()+"="+l.GetValue())
			}
			v := m.GetCounter().GetValue()
			if h := m.GetHistogram(); h != nil {
				v = float64(h.GetSampleCount())
			}
			got[f.GetName()][strings.Join(vals, ",")] = v
		}
	}
	want := map[string]map[string]float64{
		"dsh_http_requests_total": {
			"code=200,method=GET,route=/boards/:name":     2,
			"code=404,method=GET,route=" + RouteUnmatched: 1,
			"code=418,method=other,route=/any":            1,
		},
		"dsh_http_request_duration_seconds": {
			"class=2xx,method=GET,route=/boards/:name":     2,
			"class=4xx,method=GET,route=" + RouteUnmatched: 1,
			"class=4xx,method=other,route=/any":            1,
		},
	}
	for name, series := range want {
		if len(got[name]) != len(series) {
			t.Errorf("%s: %v, want %v", name, got[name], series)
			continue
		}
		for labels, n := range series {
			if got[name][labels] != n {
				t.Errorf("%s{%s} = %v, want %v (all: %v)", name, labels, got[name][labels], n, got[name])
			}
		}
	}
}
