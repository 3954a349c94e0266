package conformance_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"maps"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// TestMCPConformance runs every server scenario of the public MCP
// conformance suite against a real `dsh serve` process (built with the
// suite's fixture tools) on loopback. Scenarios listed in
// expected-failures.yaml do not apply to a tools-only server, each with its
// reason; every other scenario must pass all its checks.
//
// The suite cannot send a bearer token, so it talks to dsh through a
// reverse proxy that adds one, as an agent's MCP client configured with a
// token would. The proxy keeps the Host header, so the suite's
// DNS-rebinding scenario reaches dsh's own Host check.
func TestMCPConformance(t *testing.T) {
	cli := requireSuite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()

	dir := t.TempDir()
	token := randomToken(t)
	base := startServe(t, token)
	proxy := bearerProxy(t, base, token)

	out := filepath.Join(dir, "results")
	cmd := exec.CommandContext(ctx, cli, "server", "--url", proxy.URL+"/mcp", "--suite", "all",
		"--expected-failures", "expected-failures.yaml", "-o", out)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
	suiteLog, runErr := cmd.CombinedOutput()

	results := readResults(t, out)
	notApplicable := readBaseline(t)
	var table strings.Builder
	for _, name := range slices.Sorted(maps.Keys(results)) {
		fmt.Fprintf(&table, "  %-32s %s\n", name, results[name])
	}
	t.Logf("conformance results (%d scenarios, %d not applicable):\n%s", len(results), len(notApplicable), table.String())

	if runErr != nil {
		t.Fatalf("conformance suite failed against its baseline: %v\n%s", runErr, dshtest.Tail(string(suiteLog), 60))
	}
	for _, want := range []string{"server-initialize", "ping", "tools-list", "dns-rebinding-protection",
		"tools-call-simple-text", "tools-call-error", "json-schema-2020-12", "logging-set-level"} {
		if results[want] != "pass" {
			t.Errorf("scenario %s: %s, want pass", want, results[want])
		}
	}
	for name, verdict := range results {
		if !slices.Contains(notApplicable, name) && verdict != "pass" {
			t.Errorf("applicable scenario %s: %s", name, verdict)
		}
	}
	for _, name := range notApplicable {
		if _, ran := results[name]; !ran {
			t.Errorf("baseline lists %s, which the suite no longer has", name)
		}
	}
}

// requireSuite returns the suite's CLI. It skips when Node or the pinned
// package is missing, and fails instead where everything must run
// (testenv.Strict: make test installs it, and CI).
func requireSuite(t *testing.T) string {
	t.Helper()
	missing := func(why string) {
		msg := why + "; install with: bash plugins/tools/mcpserve/conformance/setup.sh (npm ci), or run make test"
		testenv.Missing(t, msg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node is not installed")
	}
	cli, err := filepath.Abs(filepath.Join("node_modules", ".bin", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cli); err != nil {
		missing("the MCP conformance suite is not installed")
	}
	return cli
}

// startServe runs `dsh serve` (built with the fixture tools) with the
// Excalidraw plugin, the status plugin, a configured bearer token and a
// free port, and returns its URL. At the end of the test it is stopped
// with SIGTERM and must exit cleanly (under -race: without a race report).
func startServe(t *testing.T, token string) string {
	t.Helper()
	bin := dshtest.Build(t, "conformance")
	sum := sha256.Sum256([]byte(token))
	p := dshtest.Start(t, bin, fmt.Sprintf(`host:
  listen: 127.0.0.1:0
  dataDir: ./data
  tokens: [{name: conformance, sha256: %s}]
  log: {level: warn, format: json}
plugins:
  - {id: status, name: status}
  - {id: excalidraw, name: excalidraw}
  - {id: fixture, name: conformanceFixture}
`, hex.EncodeToString(sum[:])))
	t.Cleanup(func() {
		exit := p.Stop(syscall.SIGTERM)
		if exit.Code != 0 || strings.Contains(exit.Stderr, "DATA RACE") {
			t.Errorf("dsh serve did not exit cleanly: %d\n%s", exit.Code, dshtest.Tail(exit.Stderr, 80))
		}
	})
	return p.URL
}

// bearerProxy forwards to base with the token added and everything else
// (the Host header included) untouched; responses stream unbuffered.
func bearerProxy(t *testing.T, base, token string) *httptest.Server {
	t.Helper()
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = r.In.Host
			r.Out.Header.Set("Authorization", "Bearer "+token)
		},
		FlushInterval: -1,
		// The suite drops connections mid-stream on purpose; that is not news.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv
}

// resultDir is <output>/server-<scenario>-<ISO time with : and . as ->.
var resultDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$`)

// readResults reads each scenario's checks.json: "pass" when every check
// succeeded, otherwise the failing checks.
func readResults(t *testing.T, out string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatalf("no results: %v", err)
	}
	results := map[string]string{}
	for _, e := range entries {
		m := resultDir.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(out, e.Name(), "checks.json"))
		if err != nil {
			t.Fatal(err)
		}
		var checks []struct {
			ID           string `json:"id"`
			Status       string `json:"status"`
			ErrorMessage string `json:"errorMessage"`
		}
		if err := json.Unmarshal(raw, &checks); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		var bad []string
		for _, c := range checks {
			if c.Status == "FAILURE" || c.Status == "WARNING" {
				bad = append(bad, fmt.Sprintf("%s %s: %.100s", c.ID, c.Status, c.ErrorMessage))
			}
		}
		switch {
		case len(checks) == 0:
			results[m[1]] = "no checks"
		case len(bad) == 0:
			results[m[1]] = "pass"
		default:
			results[m[1]] = strings.Join(bad, "; ")
		}
	}
	return results
}

func readBaseline(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("expected-failures.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var baseline struct {
		Server []string `yaml:"server"`
	}
	if err := yaml.Unmarshal(raw, &baseline); err != nil {
		t.Fatal(err)
	}
	return baseline.Server
}

func randomToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "dsh_conformance_" + hex.EncodeToString(b)
}
