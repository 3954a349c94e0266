// Package metricstest reads a host's Prometheus exposition in tests: a
// scrape of GET /metrics, parsed into its families, and the samples a
// test looks for by name and labels.
package metricstest

import (
	"io"
	"net/http"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Families are a scrape's metric families by name.
type Families map[string]*dto.MetricFamily

// Parse parses an exposition in the text format, or fails tb.
func Parse(tb testing.TB, body string) Families {
	tb.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		tb.Fatalf("parse the scrape: %v", err)
	}
	return fams
}

// Scrape GETs url (a /metrics address) with c, as token's bearer when
// token is not empty, and parses the answer; anything but 200 fails tb.
func Scrape(tb testing.TB, c *http.Client, url, token string) Families {
	tb.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		tb.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("GET %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s: %d %s", url, resp.StatusCode, body)
	}
	return Parse(tb, string(body))
}

// Sample is the first metric of family name whose labels include want,
// or nil.
func (f Families) Sample(name string, want map[string]string) *dto.Metric {
next:
	for _, m := range f[name].GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		return m
	}
	return nil
}
