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
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
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
	bin := buildDsh(t, ctx, dir)
	token := randomToken(t)
	base := startServe(t, bin, dir, token)
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
		t.Fatalf("conformance suite failed against its baseline: %v\n%s", runErr, tail(suiteLog, 60))
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
// package is missing, and fails instead under CI=true, where `make test`
// installs it.
func requireSuite(t *testing.T) string {
	t.Helper()
	missing := func(why string) {
		msg := why + "; install with: bash internal/conformance/setup.sh (npm ci), or run make test"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
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

// buildDsh builds cmd/dsh with the fixture tools (and the race detector
// when this test runs under it, so a race in the server fails the run).
func buildDsh(t *testing.T, ctx context.Context, dir string) string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	bin := filepath.Join(dir, "dsh")
	args := []string{"build", "-tags", "conformance", "-o", bin}
	if raceEnabled {
		args = append(args, "-race")
	}
	cmd := exec.CommandContext(ctx, goBin, append(args, "github.com/dshgo/dsh/cmd/dsh")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func randomToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "dsh_conformance_" + hex.EncodeToString(b)
}

// startServe runs `dsh serve` with the Excalidraw plugin, the status plugin
// and the fixture tools, a configured bearer token and a free port, and
// returns its URL once it answers. At the end of the test it is stopped
// with SIGTERM and must exit cleanly (under -race: without a race report).
func startServe(t *testing.T, bin, dir, token string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(token))
	config := filepath.Join(dir, "dsh.yaml")
	yml := fmt.Sprintf(`host:
  listen: 127.0.0.1:0
  dataDir: %s
  tokens: [{name: conformance, sha256: %s}]
  log: {level: warn, format: json}
plugins:
  - {id: status, name: status}
  - {id: excalidraw, name: excalidraw}
  - {id: fixture, name: conformanceFixture}
`, filepath.Join(dir, "data"), hex.EncodeToString(sum[:]))
	if err := os.WriteFile(config, []byte(yml), 0o600); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "serve.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	// Not CommandContext: the test's context ends before cleanups run, and
	// the process must get its SIGTERM, not a kill.
	cmd := exec.Command(bin, "serve", "--config", config)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); logFile.Close() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			logged, _ := os.ReadFile(logPath)
			if err != nil || strings.Contains(string(logged), "DATA RACE") {
				t.Errorf("dsh serve did not exit cleanly: %v\n%s", err, tail(logged, 80))
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("dsh serve did not stop within 30s of SIGTERM")
		}
	})

	runtimeFile := filepath.Join(dir, "data", "runtime.json")
	deadline := time.Now().Add(60 * time.Second)
	for {
		var rt struct{ URL string }
		if b, err := os.ReadFile(runtimeFile); err == nil && json.Unmarshal(b, &rt) == nil && rt.URL != "" {
			if resp, err := http.Get(rt.URL + "/healthz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return rt.URL
				}
			}
		}
		select {
		case err := <-exited:
			logged, _ := os.ReadFile(logPath)
			t.Fatalf("dsh serve exited early: %v\n%s", err, tail(logged, 40))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("dsh serve did not come up within 60s")
		}
	}
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

// tail is the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
