package editor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
)

// requireEditor skips (or, strict, fails) when the page was not built.
func requireEditor(t testing.TB) {
	t.Helper()
	if editor.Assets() != nil {
		return
	}
	testenv.Missing(t, "editor not built; run make editor (make test builds it)")
}

// world is a running host with the Excalidraw plugin, a headless Chromium
// logged in through the host's login link, and an MCP agent session.
type world struct {
	t        testing.TB
	host     *dsh.Host
	drawings string
	browser  context.Context // the first tab; newTab opens more
	agent    *mcp.ClientSession
	http     *http.Client

	mu      sync.Mutex
	offsite map[string]string            // request id → URL of requests to anything but dsh
	console map[context.Context][]string // each tab's console errors, in order
	sent    map[context.Context][]string // each tab's requests to dsh, "METHOD /path"
}

// worldOption changes the host a world starts.
type worldOption func(*worldConfig)

type worldConfig struct {
	plugin string // extra keys of the excalidraw entry's config, as YAML flow entries
}

// withPluginConfig adds keys to the Excalidraw plugin's config, e.g.
// "maxElements: 3".
func withPluginConfig(yaml string) worldOption {
	return func(c *worldConfig) { c.plugin = yaml }
}

func newWorld(t testing.TB, opts ...worldOption) *world {
	t.Helper()
	requireEditor(t)
	exe := testenv.Chromium(t)
	var wc worldConfig
	for _, o := range opts {
		o(&wc)
	}
	w := &world{t: t, drawings: filepath.Join(t.TempDir(), "drawings"), offsite: map[string]string{}, console: map[context.Context][]string{}, sent: map[context.Context][]string{}}

	extra := ""
	if wc.plugin != "" {
		extra = ", " + wc.plugin
	}
	cfg := fmt.Sprintf("host:\n  listen: 127.0.0.1:0\n  dataDir: %s\n  log: {level: error, format: json}\n  http: {drainTimeout: 2s}\n"+
		"plugins:\n  - {id: excalidraw, name: excalidraw, config: {drawingsDir: %q%s}}\n", t.TempDir(), w.drawings, extra)
	h, err := dsh.New(dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(cfg)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Stop(context.Background()); err != nil {
			t.Errorf("stop host: %v", err)
		}
	})
	s, ok := h.PluginScope("excalidraw")
	if !ok {
		t.Fatal("no excalidraw scope")
	}
	if err := s.AwaitActive(ctx); err != nil {
		t.Fatal(err)
	}
	w.host = h
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	w.http = &http.Client{Transport: tr, Timeout: 30 * time.Second}
	w.agent = w.connectAgent()

	allocOpts := testenv.BrowserOptions(exe)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), allocOpts...)
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc() })
	w.browser = browser
	w.watch(browser)

	link, err := h.LoginLink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w.run(browser, chromedp.Navigate(link+"&next="+url.QueryEscape("/dsh-excalidraw/")))
	w.waitJS(browser, "the scene list page", `document.querySelector(".dsh-create") !== null`)
	t.Cleanup(func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if len(w.offsite) > 0 {
			t.Errorf("the page sent %d requests to other hosts (it must work offline): %v", len(w.offsite), slices.Collect(maps.Values(w.offsite))[:1])
		}
	})
	return w
}

// watch records requests the tab makes (or tries to make: one the CSP
// blocks counts too) outside the host, and its console errors, so tests
// can assert the page stays on dsh and says nothing alarming.
func (w *world) watch(tab context.Context) {
	base, _ := url.Parse(w.host.URL())
	err := chromedp.Listen(tab, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
				}
				w.consoleError(tab, "console."+string(e.Type)+": "+strings.Join(parts, " "))
			}
			return
		case *runtime.EventExceptionThrown:
			msg := e.ExceptionDetails.Text
			if ex := e.ExceptionDetails.Exception; ex != nil {
				msg += " " + ex.Description
			}
			w.consoleError(tab, "exception: "+msg)
			return
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError {
				w.consoleError(tab, string(e.Entry.Source)+": "+e.Entry.Text+" "+e.Entry.URL)
			}
			return
		}
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			u, err := url.Parse(e.Request.URL)
			if err != nil || u.Scheme == "data" || u.Scheme == "blob" {
				return
			}
			w.mu.Lock()
			if u.Host != base.Host {
				w.offsite[string(e.RequestID)] = e.Request.URL
			} else {
				w.sent[tab] = append(w.sent[tab], e.Request.Method+" "+u.Path)
			}
			w.mu.Unlock()
		}
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) consoleError(tab context.Context, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.console[tab] = append(w.console[tab], msg)
}

// consoleErrors is what the tab's console has shown as errors so far.
func (w *world) consoleErrors(tab context.Context) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.console[tab])
}

// requests is what the tab has asked of dsh so far, "METHOD /path" each.
func (w *world) requests(tab context.Context) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.sent[tab])
}

// newTab opens another tab in the same browser (same session cookie).
func (w *world) newTab() context.Context {
	tab, cancel := chromedp.NewContext(w.browser)
	w.t.Cleanup(cancel)
	w.watch(tab)
	return tab
}

// run executes actions in a tab with a deadline, saving a screenshot if
// they fail.
func (w *world) run(tab context.Context, actions ...chromedp.Action[chromedp.Void]) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(tab, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		w.screenshot(tab, "run")
		w.t.Fatalf("browser: %v", err)
	}
}

// evalJS evaluates JS in a tab, awaiting a returned promise, and decodes
// the value.
func evalJS[T any](w *world, tab context.Context, js string) T {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(tab, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		w.screenshot(tab, "eval")
		w.t.Fatalf("browser: %v\n%s", err, js)
	}
	return v
}

// waitJS polls a JS condition until it is true.
func (w *world) waitJS(tab context.Context, what, cond string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		w.screenshot(tab, what)
		w.t.Fatalf("waiting for %s: %v", what, err)
	}
}

// screenshot saves the tab as a PNG next to the test's other artifacts.
func (w *world) screenshot(tab context.Context, what string) {
	ctx, cancel := context.WithTimeout(tab, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(80))
	if err != nil {
		w.t.Logf("screenshot failed: %v", err)
		return
	}
	dir := os.Getenv("DSH_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "dsh-browser-failures")
	}
	_ = os.MkdirAll(dir, 0o755)
	name := strings.NewReplacer("/", "_", " ", "_").Replace(w.t.Name()+"-"+what) + ".png"
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err == nil {
		w.t.Logf("screenshot: %s", path)
	}
}

// openScene opens a scene in a tab and waits until its editor is live.
func (w *world) openScene(tab context.Context, name string) {
	w.t.Helper()
	w.run(tab, chromedp.Navigate(w.host.URL()+"/dsh-excalidraw/#"+name))
	w.waitJS(tab, "editor of "+name, fmt.Sprintf(`window.dshEditor && window.dshEditor.name === %q && document.querySelector(".excalidraw canvas") !== null`, name))
	// In the board's live room: from here on what the page draws is sent
	// there (before, it saves by PUT).
	w.waitJS(tab, "the room of "+name, `window.dshEditor.state().room === "joined"`)
}

// state is the page's view of its scene.
type pageState struct {
	Name     string `json:"name"`
	Revision int64  `json:"revision"`
	SHA256   string `json:"sha256"`
	Status   string `json:"status"`
	Follow   bool   `json:"follow"`
	Link     string `json:"link"`    // the live stream: live, reconnecting, unavailable, unauthorized, offline, off
	Dirty    bool   `json:"dirty"`   // the canvas has changes not on disk
	Failure  string `json:"failure"` // why the last save failed (describe's kind), "" if it did not
	Room     string `json:"room"`    // the live room: off, connecting, joined, down, refused
	Unacked  int    `json:"unacked"` // elements sent to the room that dsh has not acknowledged
}

func (w *world) state(tab context.Context) pageState {
	w.t.Helper()
	return evalJS[pageState](w, tab, `window.dshEditor.state()`)
}

// draw adds a rectangle through Excalidraw's API, as a person's stroke
// would, with undo capture.
func (w *world) draw(tab context.Context, id string, x, y int) {
	w.t.Helper()
	evalJS[bool](w, tab, fmt.Sprintf(`(() => {
		const {api, lib} = window.dshEditor;
		const [el] = lib.convertToExcalidrawElements([{type: "rectangle", id: %q, x: %d, y: %d, width: 120, height: 70, backgroundColor: "#a5d8ff", fillStyle: "solid"}], {regenerateIds: false});
		api.updateScene({elements: [...api.getSceneElementsIncludingDeleted(), el], captureUpdate: lib.CaptureUpdateAction.IMMEDIATELY});
		return true;
	})()`, id, x, y))
}

// setOffline cuts the tab off the network (every request fails, and
// navigator.onLine says so) or puts it back.
func (w *world) setOffline(tab context.Context, off bool) {
	w.t.Helper()
	var rules []*network.Conditions
	if off {
		rules = []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}
	}
	w.run(tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: rules}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	}))
}

// sceneButtonJS finds a scene's button in the sidebar list.
func sceneButtonJS(name string) string {
	return fmt.Sprintf(`[...document.querySelectorAll(".dsh-scenes .dsh-scene")].find(b => b.textContent.trim().startsWith(%q))`, name)
}

// clickScene clicks a scene in the sidebar, as a person opens it.
func (w *world) clickScene(tab context.Context, name string) {
	w.t.Helper()
	w.waitJS(tab, "the list entry of "+name, sceneButtonJS(name)+" !== undefined")
	evalJS[bool](w, tab, "("+sceneButtonJS(name)+".click(), true)")
}

// pressSave sends Ctrl+S to the page.
func (w *world) pressSave(tab context.Context) {
	w.t.Helper()
	w.run(tab, chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
}

// pageHas reports whether the page's scene has a live element id.
func pageHasJS(id string) string {
	return fmt.Sprintf(`window.dshEditor && window.dshEditor.api.getSceneElements().some(e => e.id === %q)`, id)
}

// sceneFile reads a scene's bytes from disk.
func (w *world) sceneFile(name string) []byte {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.drawings, name+".excalidraw"))
	if err != nil {
		w.t.Fatal(err)
	}
	return b
}

// health fetches /dsh-excalidraw/api/health with the host's token.
func (w *world) health() map[string]any {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, w.host.URL()+"/dsh-excalidraw/api/health", nil)
	req.Header.Set("Authorization", "Bearer "+w.host.Token())
	resp, err := w.http.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		w.t.Fatalf("health: %v: %s", err, b)
	}
	return out
}

// editorHealth is the evidence /health shows the host's token for the
// board name (empty before its editor has reported anything).
func (w *world) editorHealth(name string) map[string]any {
	w.t.Helper()
	eds, _ := w.health()["editors"].(map[string]any)
	ed, _ := eds[name].(map[string]any)
	if ed == nil {
		return map[string]any{}
	}
	return ed
}

// connectAgent is an MCP client over real HTTP with the host's token.
func (w *world) connectAgent() *mcp.ClientSession {
	w.t.Helper()
	tr := &http.Transport{}
	c := mcp.NewClient(&mcp.Implementation{Name: "browser-test-agent", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sess, err := c.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   w.host.URL() + "/mcp",
		HTTPClient: &http.Client{Transport: dshtest.Bearer{Token: w.host.Token(), Base: tr}},
	}, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { _ = sess.Close(); tr.CloseIdleConnections() })
	return sess
}

// tool calls an agent tool over MCP and returns its decoded result,
// failing the test on an error result.
func (w *world) tool(name string, args map[string]any) map[string]any {
	w.t.Helper()
	res, err := w.agent.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		w.t.Fatalf("%s: %v", name, err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		w.t.Fatal(err)
	}
	if res.IsError {
		w.t.Fatalf("%s failed: %v", name, out)
	}
	return out
}

// eventually polls cond with a generous deadline (shared, noisy machines).
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
