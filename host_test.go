package dsh_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"go.uber.org/fx"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/status"
	"github.com/dshgo/dsh/plugins/webserver"
)

// counter is a plugin whose applies are counted per entry config "tag".
type counter struct {
	mu      sync.Mutex
	applies map[string]int
	live    bool
	reconf  atomic.Int32
}

var counterSchema = []byte(`{"type":"object","additionalProperties":false,"properties":{
  "tag":{"type":"string","default":"x"},
  "size":{"type":"integer","minimum":1,"maximum":100,"default":10}}}`)

func (c *counter) plugin(name string) app.Plugin {
	p := app.Plugin{Name: name, ConfigSchema: counterSchema, Apply: func(ctx *app.Context, cfg app.Config) error {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.applies[fmt.Sprint(cfg["tag"])]++
		return nil
	}}
	if c.live {
		p.Reconfigure = func(*app.Context, app.Config) error { c.reconf.Add(1); return nil }
	}
	return p
}

func (c *counter) count(tag string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.applies[tag]
}

func TestHotReloadRestartsOnlyTheChangedEntry(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dsh.yaml")
	restart := &counter{applies: map[string]int{}}
	live := &counter{applies: map[string]int{}, live: true}
	base := hosttest.YAML(t, "")
	write := func(aTag, bTag string, liveSize int) {
		hosttest.WriteFile(t, path, base+fmt.Sprintf(
			"  - {id: a, name: counter, config: {tag: %s}}\n  - {id: b, name: counter, config: {tag: %s}}\n  - {id: l, name: live, config: {tag: l, size: %d}}\n",
			aTag, bTag, liveSize))
	}
	write("a1", "b1", 5)
	h := hosttest.New(t, dsh.WithConfigFile(path), dsh.WithPlugins(restart.plugin("counter"), live.plugin("live")))
	a0, b0, l0 := hosttest.Scope(t, h, "a"), hosttest.Scope(t, h, "b"), hosttest.Scope(t, h, "l")

	write("a2", "b1", 5) // only entry a changes
	hosttest.Eventually(t, "entry a restarted", func() bool { return restart.count("a2") == 1 })
	if s := hosttest.Scope(t, h, "b"); s != b0 || restart.count("b1") != 1 {
		t.Fatalf("entry b was restarted (applies %d)", restart.count("b1"))
	}
	if a0.State() != app.StateActive || a0.Config()["tag"] != "a2" {
		t.Fatalf("entry a: %s with %v", a0.State(), a0.Config())
	}

	write("a2", "b1", 7) // a live-reconfigurable entry gets its config without restart
	hosttest.Eventually(t, "live reconfigure", func() bool { return live.reconf.Load() == 1 })
	if s := hosttest.Scope(t, h, "l"); s != l0 || live.count("l") != 1 {
		t.Fatal("live entry was restarted")
	}
	if got := hosttest.Scope(t, h, "l").Config()["size"]; fmt.Sprint(got) != "7" {
		t.Fatalf("live entry config size = %v", got)
	}

	write("a2", "b1", 500) // clamped to the schema's maximum, not an error
	hosttest.Eventually(t, "clamped config", func() bool { return fmt.Sprint(hosttest.Scope(t, h, "l").Config()["size"]) == "100" })

	// Removing an entry disposes it; adding one loads it.
	hosttest.WriteFile(t, path, base+"  - {id: a, name: counter, config: {tag: a2}}\n  - {id: c, name: counter, config: {tag: c1}}\n")
	hosttest.Eventually(t, "entry c loaded", func() bool { return restart.count("c1") == 1 })
	hosttest.Eventually(t, "entry b removed", func() bool { return b0.State() == app.StateDisposed })
	if restart.count("a2") != 1 {
		t.Fatal("unchanged entry a restarted")
	}
}

func TestInvalidEditKeepsTheRunningInstance(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dsh.yaml")
	c := &counter{applies: map[string]int{}}
	base := hosttest.YAML(t, "")
	hosttest.WriteFile(t, path, base+"  - {id: a, name: counter, config: {tag: one}}\n")
	h := hosttest.New(t, dsh.WithConfigFile(path), dsh.WithPlugins(c.plugin("counter")))
	before := hosttest.Scope(t, h, "a")

	hosttest.WriteFile(t, path, base+"  - {id: a, name: counter, config: {tag: two, size: lots}}\n")
	// A valid edit of another file-level detail follows later; until then
	// nothing may change. Give the watcher a reload to refuse, then check.
	time.Sleep(500 * time.Millisecond)
	if hosttest.Scope(t, h, "a") != before || before.State() != app.StateActive || c.count("two") != 0 {
		t.Fatal("an invalid edit changed the running instance")
	}
	hosttest.WriteFile(t, path, base+"  - {id: a, name: counter, config: {tag: three}}\n")
	hosttest.Eventually(t, "valid edit applied", func() bool { return c.count("three") == 1 })
	if c.count("two") != 0 {
		t.Fatal("the invalid config was applied")
	}
}

func TestInvalidConfigAtStartIsAnError(t *testing.T) {
	c := &counter{applies: map[string]int{}}
	_, err := dsh.New(dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: a, name: counter, config: {size: big}}\n"))), dsh.WithPlugins(c.plugin("counter")))
	if err == nil || !strings.Contains(err.Error(), "/plugins/0/config/size") {
		t.Fatalf("err = %v; want one naming /plugins/0/config/size", err)
	}
	_, err = dsh.New(dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: a, name: counter}\n  - {id: a, name: counter}\n"))), dsh.WithPlugins(c.plugin("counter")))
	if err == nil {
		t.Fatal("duplicate ids must be rejected")
	}
}

func TestHeadlessComposition(t *testing.T) {
	h := hosttest.New(t, dsh.Headless(), dsh.WithPlugins(status.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: status, name: status, config: {title: headless}}\n"))))
	if h.Web != nil || h.URL() != "" {
		t.Fatal("headless host has a web server")
	}
	if err := hosttest.Scope(t, h, "status").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	res := h.Tools.Call(hosttest.Context(t), "dsh_status", nil)
	if !res.OK || !strings.Contains(string(res.JSON), `"title":"headless"`) {
		t.Fatalf("status tool: %s", res.JSON)
	}
	// The parts that need webServer wait: the status plugin's routes, the
	// MCP endpoint and the admin API.
	pending := map[string]bool{}
	for _, s := range h.Runtime.Scopes() {
		if s.State == app.StatePending {
			pending[s.Name] = true
		}
	}
	for _, name := range []string{"status/inject", "mcp", "admin"} {
		if !pending[name] {
			t.Errorf("%s is not pending in a headless host: %v", name, h.Runtime.Scopes())
		}
	}
}

// TestLoadUnloadUnderConcurrentRequests reloads a plugin through the
// admin API while clients call its route: every answer is the route's
// (200) or a clean 404 between mounts, never an error.
func TestLoadUnloadUnderConcurrentRequests(t *testing.T) {
	slow := app.Plugin{Name: "slow", Inject: []app.Dep{app.Need(webserver.ServiceName)}, Apply: func(ctx *app.Context, _ app.Config) error {
		return webserver.Use(ctx, webserver.Route{Method: http.MethodGet, Path: "/slow", Handler: func(c echo.Context) error {
			time.Sleep(2 * time.Millisecond) // in flight while the unload drains
			return c.String(http.StatusOK, "ok")
		}})
	}}
	h := hosttest.New(t, dsh.WithPlugins(slow), dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: slow, name: slow}\n"))))
	c := hosttest.Client(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var ok200, ok404 atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				code, body := hosttest.Do(t, c, http.MethodGet, h.URL()+"/slow", hosttest.Bearer(h))
				switch {
				case code == 200 && body == "ok":
					ok200.Add(1)
				case code == 404:
					ok404.Add(1)
				default:
					t.Errorf("unexpected answer %d %q", code, body)
					return
				}
			}
		}()
	}
	for i := range 30 {
		action := []string{"unload", "load", "reload"}[i%3]
		code, body := hosttest.Do(t, c, http.MethodPost, h.URL()+"/api/admin/plugins/slow/"+action, hosttest.Bearer(h))
		if code != 200 {
			t.Fatalf("%s: %d %s", action, code, body)
		}
	}
	close(stop)
	wg.Wait()
	if ok200.Load() == 0 {
		t.Fatal("no request reached the route")
	}
	t.Logf("%d answered, %d between mounts", ok200.Load(), ok404.Load())
}

func TestAdmissionThroughTheHost(t *testing.T) {
	h := hosttest.New(t, dsh.WithPlugins(status.Plugin), dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: status, name: status}\n"))))
	c := hosttest.Client(t)
	u := h.URL() + "/api/status"
	cases := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"no session", nil, 401},
		{"bad token", map[string]string{"Authorization": "Bearer dsh_wrong"}, 401},
		{"cross-origin", map[string]string{"Origin": "http://evil.example"}, 403},
		{"cross-site fetch", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"rebinding host", map[string]string{"Host": "evil.example"}, 403},
		{"good token", hosttest.Bearer(h), 200},
	}
	for _, tc := range cases {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		for k, v := range tc.hdr {
			if k == "Host" {
				req.Host = v
			}
			req.Header.Set(k, v)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
	if code, _ := hosttest.Do(t, c, http.MethodGet, h.URL()+"/healthz", nil); code != 200 {
		t.Errorf("public route: %d", code)
	}

	// A browser logs in through the one-time link and is then admitted
	// for same-origin requests only.
	jar, _ := cookiejar.New(nil)
	browser := hosttest.Client(t)
	browser.Jar = jar
	link, err := h.LoginLink(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := hosttest.Do(t, browser, http.MethodGet, link, nil); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	if code, _ := hosttest.Do(t, browser, http.MethodGet, link, nil); code != http.StatusForbidden {
		t.Fatalf("second use of the login link: %d, want 403", code)
	}
	base, _ := url.Parse(h.URL())
	if len(jar.Cookies(base)) == 0 {
		t.Fatal("no session cookie")
	}
	same := map[string]string{"Sec-Fetch-Site": "same-origin"}
	if code, body := hosttest.Do(t, browser, http.MethodGet, u, same); code != 200 || !strings.Contains(body, `"scopes"`) {
		t.Fatalf("session GET: %d %s", code, body)
	}
	if code, _ := hosttest.Do(t, browser, http.MethodGet, u, map[string]string{"Origin": "http://evil.example"}); code != 403 {
		t.Fatalf("session + foreign origin: %d", code)
	}
	// State-changing without same-origin evidence is refused (CSRF).
	if code, _ := hosttest.Do(t, browser, http.MethodPost, h.URL()+"/api/admin/plugins/status/reload", nil); code != 403 {
		t.Fatalf("POST without origin evidence: %d", code)
	}
	if code, _ := hosttest.Do(t, browser, http.MethodPost, h.URL()+"/api/admin/plugins/status/reload", map[string]string{"Origin": h.URL()}); code != 200 {
		t.Fatalf("same-origin POST: %d", code)
	}
}

func TestAdminAPI(t *testing.T) {
	h := hosttest.New(t, dsh.WithPlugins(status.Plugin), dsh.WithConfigYAML([]byte(hosttest.YAML(t,
		"  - {id: status, name: status}\n  - {id: off, name: status, disabled: true}\n"))))
	c := hosttest.Client(t)
	code, body := hosttest.Do(t, c, http.MethodGet, h.URL()+"/api/admin/plugins", hosttest.Bearer(h))
	var list struct {
		Plugins []struct{ ID, State string }
	}
	if code != 200 || json.Unmarshal([]byte(body), &list) != nil || len(list.Plugins) != 2 {
		t.Fatalf("list: %d %s", code, body)
	}
	if list.Plugins[0].State != "active" || list.Plugins[1].State != "unloaded" {
		t.Fatalf("states: %+v", list.Plugins)
	}
	if code, _ := hosttest.Do(t, c, http.MethodPost, h.URL()+"/api/admin/plugins/nope/load", hosttest.Bearer(h)); code != 404 {
		t.Fatalf("unknown entry: %d", code)
	}
	if code, _ := hosttest.Do(t, c, http.MethodPost, h.URL()+"/api/admin/plugins/status/explode", hosttest.Bearer(h)); code != 400 {
		t.Fatalf("bad action: %d", code)
	}
	// The disabled entry can be loaded at runtime; a second status plugin
	// collides with the first one's tool, which is reported, and the failed
	// scope rolled back, leaving the first one untouched.
	code, body = hosttest.Do(t, c, http.MethodPost, h.URL()+"/api/admin/plugins/off/load", hosttest.Bearer(h))
	if code != http.StatusConflict || !strings.Contains(body, "plugin_failed") || !strings.Contains(body, "already registered") {
		t.Fatalf("load colliding entry: %d %s", code, body)
	}
	code, body = hosttest.Do(t, c, http.MethodGet, h.URL()+"/api/admin/plugins", hosttest.Bearer(h))
	if code != 200 || !strings.Contains(body, `"state":"failed"`) {
		t.Fatalf("failed entry not listed as failed: %s", body)
	}
	if code, _ := hosttest.Do(t, c, http.MethodGet, h.URL()+"/healthz", nil); code != 200 {
		t.Fatalf("first instance's route broken by the failed second: %d", code)
	}
	if code, _ := hosttest.Do(t, c, http.MethodPost, h.URL()+"/api/admin/plugins/off/unload", hosttest.Bearer(h)); code != 200 {
		t.Fatalf("unload failed entry: %d", code)
	}
	code, body = hosttest.Do(t, c, http.MethodGet, h.URL()+"/api/admin/scopes", hosttest.Bearer(h))
	if code != 200 || !strings.Contains(body, `"name":"status/inject"`) || strings.Contains(body, `"failed"`) {
		t.Fatalf("scopes: %d %s", code, body)
	}
}

func TestStopRemovesEverything(t *testing.T) {
	h, err := dsh.New(dsh.WithPlugins(status.Plugin), dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: status, name: status}\n"))))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	url := h.URL()
	if err := h.Stop(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	if n := len(h.Runtime.Scopes()); n != 0 {
		t.Fatalf("%d scopes after stop", n)
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Fatal("server still answers after stop")
	}
	_ = os.Remove // keep imports stable across edits
	_ = context.Background
}

// TestConfigSourceSuppliedEitherWay: an fx program may supply the config
// source as a value (as the package doc shows) or as a pointer; both
// reach the host, and supplying both is refused rather than one being
// silently ignored.
func TestConfigSourceSuppliedEitherWay(t *testing.T) {
	yml := []byte("host: {dataDir: " + t.TempDir() + ", log: {level: error}}\nplugins:\n  - {id: probe-entry, name: status}\n")
	for name, supply := range map[string]fx.Option{
		"value":   fx.Supply(dsh.ConfigSource{YAML: yml}),
		"pointer": fx.Supply(&dsh.ConfigSource{YAML: yml}),
	} {
		var cfg *dsh.LoadedConfig
		app := fx.New(dsh.HeadlessModule, dsh.Plugins(status.Plugin), supply, fx.NopLogger, fx.Populate(&cfg))
		if err := app.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(cfg.File.Plugins) != 1 || cfg.File.Plugins[0].ID != "probe-entry" {
			t.Errorf("%s: the supplied config was not used: %+v", name, cfg.File.Plugins)
		}
	}
	both := fx.New(dsh.HeadlessModule, fx.Supply(dsh.ConfigSource{YAML: yml}), fx.Supply(&dsh.ConfigSource{YAML: yml}), fx.NopLogger)
	if err := both.Err(); err == nil || !strings.Contains(err.Error(), "supply one") {
		t.Fatalf("both supplied: %v", err)
	}
}
