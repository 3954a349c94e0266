package deploy_test

import (
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"go.yaml.in/yaml/v3"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/status"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// stage is one FROM section of the Dockerfile: its base, name and
// instructions (keyword in lower case, then its words).
type stage struct {
	from, name string
	lines      [][]string
}

// find is the instructions of kind (lower case) in s.
func (s stage) find(kind string) [][]string {
	var out [][]string
	for _, l := range s.lines {
		if l[0] == kind {
			out = append(out, l[1:])
		}
	}
	return out
}

// dockerfile parses deploy/Dockerfile with BuildKit's own parser into its
// stages.
func dockerfile(t *testing.T) []stage {
	t.Helper()
	f, err := os.Open("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := parser.Parse(f)
	if err != nil {
		t.Fatalf("parse the Dockerfile: %v", err)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("the Dockerfile parses with warnings: %+v", res.Warnings)
	}
	var stages []stage
	for _, n := range res.AST.Children {
		words := []string{strings.ToLower(n.Value)}
		for a := n.Next; a != nil; a = a.Next {
			words = append(words, a.Value)
		}
		if words[0] == "from" {
			s := stage{from: words[1]}
			if len(words) == 4 && strings.EqualFold(words[2], "as") {
				s.name = words[3]
			}
			stages = append(stages, s)
			continue
		}
		if len(stages) == 0 {
			t.Fatalf("%s before the first FROM", n.Original)
		}
		// Flags (--from=, --chown=) are words of their own.
		for _, fl := range n.Flags {
			words = append(words, fl)
		}
		stages[len(stages)-1].lines = append(stages[len(stages)-1].lines, words)
	}
	return stages
}

// makeRecipe is the commands of the Makefile rule whose target line
// starts with target, with $(GO) as go and $(EDITOR) spelled out.
func makeRecipe(t *testing.T, target string) []string {
	t.Helper()
	b, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	editor := regexp.MustCompile(`(?m)^EDITOR\s*:=\s*(\S+)`).FindSubmatch(b)
	if editor == nil {
		t.Fatal("no EDITOR := in the Makefile")
	}
	expand := strings.NewReplacer("$(GO)", "go", "$(EDITOR)", string(editor[1]))
	var out []string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, target):
			in = true
		case in && strings.HasPrefix(line, "\t"):
			out = append(out, expand.Replace(strings.TrimSpace(line)))
		default:
			in = false
		}
	}
	if len(out) == 0 {
		t.Fatalf("no recipe for %s in the Makefile", target)
	}
	return out
}

// nodeConfig is deploy/dsh.yaml as the host loads it, with the plugins
// cmd/dsh links in: the host schema and each plugin's schema check it.
func nodeConfig(t *testing.T) *dsh.LoadedConfig {
	t.Helper()
	c, err := dsh.LoadConfig(dsh.ConfigSource{Path: "dsh.yaml"}, status.Plugin, excalidraw.Plugin)
	if err != nil {
		t.Fatalf("deploy/dsh.yaml: %v", err)
	}
	return c
}

// port is the port of a host:port address.
func port(t *testing.T, addr string) string {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("%q: %v", addr, err)
	}
	return p
}

// TestDockerfile: the image is built in stages with the Makefile's own
// commands (npm ci and npm run build for the editor in its folder, go
// build of cmd/dsh with the editor in place), and the final stage runs as
// a non-root user with the binaries only, a health check on /healthz, the
// node config's ports exposed and its data directory a volume.
func TestDockerfile(t *testing.T) {
	stages := dockerfile(t)
	if len(stages) < 3 {
		t.Fatalf("%d stages, want an editor, a build and a final stage", len(stages))
	}
	final := stages[len(stages)-1]
	named := map[string]stage{}
	for _, s := range stages[:len(stages)-1] {
		if s.name == "" {
			t.Errorf("stage FROM %s has no name", s.from)
		}
		named[s.name] = s
	}

	// The Makefile's commands, each in the stage's folder it cds into.
	var want []string
	want = append(want, makeRecipe(t, "$(EDITOR)/web/node_modules/.installed:")...)
	want = append(want, makeRecipe(t, "$(EDITOR)/dist/app/index.html:")...)
	want = append(want, makeRecipe(t, "build:")...)
	for _, cmd := range want {
		if cmd == "touch $@" {
			continue
		}
		dir, run := "", cmd
		if d, rest, ok := strings.Cut(cmd, " && "); ok && strings.HasPrefix(d, "cd ") {
			dir, run = strings.TrimPrefix(d, "cd "), rest
		}
		found := false
		for _, s := range named {
			workdirs := s.find("workdir")
			for _, r := range s.find("run") {
				if strings.Join(r, " ") != run {
					continue
				}
				if dir == "" || len(workdirs) > 0 && strings.HasSuffix(workdirs[len(workdirs)-1][0], "/"+dir) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("no build stage runs the Makefile's %q (in %q)", run, dir)
		}
	}
	// The build stage copies the editor stage's output where the Go
	// package embeds it before go build.
	build := named["build"]
	embedded := false
	for _, c := range build.find("copy") {
		if slices.Contains(c, "--from=editor") && strings.Contains(c[0], "plugins/excalidraw/editor/dist/app") &&
			strings.HasPrefix(c[1], "plugins/excalidraw/editor/dist/app") {
			embedded = true
		}
	}
	if !embedded {
		t.Error("the build stage does not copy the editor's dist/app into place")
	}

	// The final stage: non-root, binaries from the build stage only.
	users := final.find("user")
	if len(users) == 0 {
		t.Fatal("the final stage has no USER: it would run as root")
	}
	if u := strings.Split(users[len(users)-1][0], ":")[0]; u == "root" || u == "0" {
		t.Errorf("the final stage runs as %q", u)
	}
	for _, c := range final.find("copy") {
		from := ""
		var srcs []string
		for _, w := range c {
			if f, ok := strings.CutPrefix(w, "--from="); ok {
				from = f
			} else if !strings.HasPrefix(w, "--") {
				srcs = append(srcs, w)
			}
		}
		srcs = srcs[:len(srcs)-1] // the last is the destination
		for _, src := range srcs {
			switch {
			case from == "":
				if _, err := os.Stat(filepath.Join("..", src)); err != nil {
					t.Errorf("COPY %s: %v", src, err)
				}
			case named[from].name == "":
				t.Errorf("COPY --from=%s: no such stage", from)
			}
		}
	}
	hc := final.find("healthcheck")
	if len(hc) != 1 || !strings.Contains(strings.Join(hc[0], " "), "/healthz") {
		t.Errorf("HEALTHCHECK %v, want one asking /healthz", hc)
	}

	cfg := nodeConfig(t).Host
	var exposed []string
	for _, e := range final.find("expose") {
		exposed = append(exposed, e...)
	}
	for _, addr := range []string{cfg.Listen, cfg.Metrics.Listen} {
		if !slices.Contains(exposed, port(t, addr)) {
			t.Errorf("EXPOSE %v lacks port %s (%s in dsh.yaml)", exposed, port(t, addr), addr)
		}
	}
	if hc := strings.Join(hc[0], " "); !strings.Contains(hc, ":"+port(t, cfg.Listen)+"/") {
		t.Errorf("the health check %q does not ask the listen port %s", hc, port(t, cfg.Listen))
	}
	vols := final.find("volume")
	if len(vols) != 1 || vols[0][0] != cfg.DataDir {
		t.Errorf("VOLUME %v, want the data directory %s", vols, cfg.DataDir)
	}
	cmd := strings.Join(final.find("cmd")[0], " ")
	if !strings.Contains(cmd, "serve --config /etc/dsh/dsh.yaml") {
		t.Errorf("CMD %q does not serve /etc/dsh/dsh.yaml", cmd)
	}
}

// TestNodeConfig: deploy/dsh.yaml passes the host's validation and holds
// what the README's "Many machines" asks of a node.
func TestNodeConfig(t *testing.T) {
	cfg := nodeConfig(t).Host
	if cfg.Store.Kind != "postgres" || cfg.Store.DSN != "" || cfg.Store.DSNEnv == "" {
		t.Errorf("store %+v: want postgres with the DSN from the environment", cfg.Store)
	}
	if h, _, _ := net.SplitHostPort(cfg.Listen); h != "0.0.0.0" {
		t.Errorf("listen %s: the balancer could not reach it", cfg.Listen)
	}
	u, err := url.Parse(cfg.PublicURL)
	if err != nil || u.Hostname() == "" {
		t.Fatalf("publicURL %q", cfg.PublicURL)
	}
	if !slices.Contains(cfg.AllowedHosts, u.Hostname()) {
		t.Errorf("allowedHosts %v lacks the publicURL's host %s", cfg.AllowedHosts, u.Hostname())
	}
	if len(cfg.TrustedProxy.Addresses) == 0 || cfg.Metrics.Listen == "" {
		t.Errorf("trustedProxy %v, metrics.listen %q: want both", cfg.TrustedProxy.Addresses, cfg.Metrics.Listen)
	}
}

// compose is the part of compose.yaml the checks read.
type compose struct {
	Services map[string]struct {
		Build *struct {
			Context, Dockerfile string
		}
		Image       string
		Environment map[string]string
		Volumes     []string
		Ports       []string
		Networks    yaml.Node
	}
	Networks map[string]struct {
		IPAM struct {
			Config []struct{ Subnet string }
		} `yaml:"ipam"`
	}
	Volumes map[string]any
}

func readCompose(t *testing.T) compose {
	t.Helper()
	b, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	return c
}

// ipv4 is the fixed address a service has on network, or "".
func ipv4(n yaml.Node, network string) string {
	var m map[string]struct {
		IPv4 string `yaml:"ipv4_address"`
	}
	if n.Decode(&m) != nil {
		return ""
	}
	return m[network].IPv4
}

// nodes is the compose services that run the dsh image.
func (c compose) nodes() []string {
	var out []string
	for name, s := range c.Services {
		if s.Build != nil || s.Image == "dsh:local" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// TestCompose: compose.yaml runs PostgreSQL, two dsh nodes on the image
// deploy/Dockerfile builds with deploy/dsh.yaml, nginx and Prometheus;
// every file it mounts exists, each node gets the DSN in the variable its
// config reads and a data volume where the config keeps its data, nginx's
// fixed address is the one the nodes trust and its published port the
// one publicURL names, and nginx and Prometheus reach every node on the
// ports dsh.yaml listens on.
func TestCompose(t *testing.T) {
	c := readCompose(t)
	cfg := nodeConfig(t).Host
	for _, name := range []string{"db", "lb", "prometheus"} {
		if _, ok := c.Services[name]; !ok {
			t.Errorf("no %s service", name)
		}
	}
	nodes := c.nodes()
	if len(nodes) != 2 {
		t.Fatalf("dsh nodes %v, want two", nodes)
	}
	for name, s := range c.Services {
		if s.Build != nil {
			if _, err := os.Stat(filepath.Join(s.Build.Context, s.Build.Dockerfile)); err != nil {
				t.Errorf("%s builds %s: %v", name, s.Build.Dockerfile, err)
			}
		}
		for _, v := range s.Volumes {
			src := strings.Split(v, ":")[0]
			if strings.HasPrefix(src, "./") {
				if _, err := os.Stat(src); err != nil {
					t.Errorf("%s mounts %s: %v", name, src, err)
				}
			} else if _, ok := c.Volumes[src]; !ok {
				t.Errorf("%s mounts volume %s, which compose.yaml does not declare", name, src)
			}
		}
	}
	for _, name := range nodes {
		s := c.Services[name]
		if dsn := s.Environment[cfg.Store.DSNEnv]; !strings.HasPrefix(dsn, "postgres://") || !strings.Contains(dsn, "@db:5432/") {
			t.Errorf("%s: %s=%q, want the db service's DSN", name, cfg.Store.DSNEnv, dsn)
		}
		if !slices.Contains(s.Volumes, "./dsh.yaml:/etc/dsh/dsh.yaml:ro") {
			t.Errorf("%s does not mount dsh.yaml where the image's CMD reads it: %v", name, s.Volumes)
		}
		data := false
		for _, v := range s.Volumes {
			if parts := strings.Split(v, ":"); len(parts) >= 2 && parts[1] == cfg.DataDir && !strings.HasPrefix(parts[0], "./") {
				data = true
			}
		}
		if !data {
			t.Errorf("%s has no volume of its own at %s", name, cfg.DataDir)
		}
	}

	// nginx: trusted by the nodes, published where publicURL says.
	lb := c.Services["lb"]
	addr := ipv4(lb.Networks, "dsh")
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		t.Fatalf("lb has no fixed address on the dsh network: %q", addr)
	}
	trusted := false
	for _, a := range cfg.TrustedProxy.Addresses {
		if p, err := netip.ParsePrefix(a); err == nil && p.Contains(ip) {
			trusted = true
		}
	}
	if !trusted {
		t.Errorf("lb's address %s is not under host.trustedProxy.addresses %v", ip, cfg.TrustedProxy.Addresses)
	}
	if sub := c.Networks["dsh"].IPAM.Config; len(sub) != 1 || !netip.MustParsePrefix(sub[0].Subnet).Contains(ip) {
		t.Errorf("lb's address %s is outside the dsh network %v", ip, sub)
	}
	u, _ := url.Parse(cfg.PublicURL)
	if len(lb.Ports) != 1 || lb.Ports[0] != u.Port()+":"+nginxListen(t) {
		t.Errorf("lb publishes %v, want %s (publicURL) to nginx's %s", lb.Ports, u.Port(), nginxListen(t))
	}
	var upstream []string
	for _, name := range nodes {
		upstream = append(upstream, name+":"+port(t, cfg.Listen))
	}
	if got := nginxUpstream(t); !slices.Equal(got, upstream) {
		t.Errorf("nginx's upstream %v, want every node %v", got, upstream)
	}
	var targets []string
	for _, name := range nodes {
		targets = append(targets, name+":"+port(t, cfg.Metrics.Listen))
	}
	if got := scrapeTargets(t); !slices.Equal(got, targets) {
		t.Errorf("Prometheus scrapes %v, want every node's metrics listener %v", got, targets)
	}
}

// nginxConf is deploy/nginx.conf.
func nginxConf(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("nginx.conf")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// nginxUpstream is the servers of nginx.conf's upstream dsh.
func nginxUpstream(t *testing.T) []string {
	t.Helper()
	block := regexp.MustCompile(`(?s)upstream dsh \{(.*?)\}`).FindStringSubmatch(nginxConf(t))
	if block == nil {
		t.Fatal("nginx.conf has no upstream dsh")
	}
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^\s*server\s+(\S+);`).FindAllStringSubmatch(block[1], -1) {
		out = append(out, m[1])
	}
	return out
}

// nginxListen is the port nginx.conf's server listens on.
func nginxListen(t *testing.T) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*listen\s+(\d+);`).FindStringSubmatch(nginxConf(t))
	if m == nil {
		t.Fatal("nginx.conf has no listen PORT;")
	}
	return m[1]
}

// scrapeTargets is prometheus.yml's targets for the dsh job.
func scrapeTargets(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		RuleFiles     []string `yaml:"rule_files"`
		ScrapeConfigs []struct {
			JobName       string `yaml:"job_name"`
			MetricsPath   string `yaml:"metrics_path"`
			StaticConfigs []struct {
				Targets []string
			} `yaml:"static_configs"`
		} `yaml:"scrape_configs"`
	}
	if err := yaml.Unmarshal(b, &p); err != nil {
		t.Fatalf("prometheus.yml: %v", err)
	}
	var out []string
	for _, sc := range p.ScrapeConfigs {
		if sc.JobName != "dsh" {
			continue
		}
		if sc.MetricsPath != "/metrics" {
			t.Errorf("metrics_path %q", sc.MetricsPath)
		}
		for _, s := range sc.StaticConfigs {
			out = append(out, s.Targets...)
		}
	}
	// The rules it loads are alerts.yml, mounted there by compose.yaml.
	c := readCompose(t)
	for _, rf := range p.RuleFiles {
		if !slices.Contains(c.Services["prometheus"].Volumes, "./"+filepath.Base(rf)+":"+rf+":ro") {
			t.Errorf("rule file %s is not mounted from deploy/", rf)
		}
	}
	slices.Sort(out)
	return out
}
