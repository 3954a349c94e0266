package manynodes

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
)

// An agent's write on node B appears in an editor open on node A (real
// Excalidraw in headless Chromium), write after write; the same writes
// through node A itself are the baseline. The delays (from sending the
// write to the page holding its revision) are logged as p50 and p99 over
// 50 writes each, and their ratio; nothing is asserted about time.
func TestWriteOnOneNodeShowsInEditorOnOther(t *testing.T) {
	c := newCluster(t, 2)
	a, b := c.nodes[0], c.nodes[1]
	onA, onB := c.agent(a.URL+"/mcp"), c.agent(b.URL+"/mcp")
	tool(t, onA, "excalidraw_scene_create", map[string]any{"name": "live", "elements": []any{
		map[string]any{"type": "rectangle", "id": "seed", "x": 0, "y": 0, "width": 100, "height": 60}}})
	pg := openEditor(t, c, a, "live")
	tab, wait := pg.tab, pg.wait
	rev := int64(1)
	measure := func(via string) []time.Duration {
		var out []time.Duration
		for i := range 50 {
			sess := onB
			if via == "A" {
				sess = onA
			}
			id := fmt.Sprintf("%s-%d", strings.ToLower(via), i)
			start := time.Now()
			res := tool(t, sess, "excalidraw_scene_apply", map[string]any{"name": "live", "expected_revision": rev, "operations": []any{
				map[string]any{"op": "add", "element": map[string]any{"type": "ellipse", "id": id, "x": 120 * (i % 10), "y": 100 + 80*(i/10), "width": 60, "height": 60}}}})
			rev++
			if got, _ := res["revision"].(float64); int64(got) != rev {
				t.Fatalf("write %s: revision %v, want %d (%v)", id, res["revision"], rev, res)
			}
			wait("write "+id+" in the editor", fmt.Sprintf(`window.dshEditor.state().revision === %d && window.dshEditor.api.getSceneElements().some(e => e.id === %q)`, rev, id))
			out = append(out, time.Since(start))
		}
		return out
	}
	cross := measure("B")
	same := measure("A")
	shot(t, tab, "after-100-writes")
	p := func(d []time.Duration, q float64) time.Duration {
		s := slices.Clone(d)
		slices.Sort(s)
		return s[min(len(s)-1, int(q*float64(len(s))))]
	}
	t.Logf("write → visible in the editor on node A, 50 writes each: via node B p50 %v p99 %v; via node A p50 %v p99 %v; cross/same p50 ratio %.2f",
		p(cross, 0.5), p(cross, 0.99), p(same, 0.5), p(same, 0.99), float64(p(cross, 0.5))/float64(p(same, 0.5)))

	// Everything B wrote is what A's page holds: element for element.
	ids := evalStrings(t, tab, `window.dshEditor.api.getSceneElements().map(e => e.id)`)
	for i := range 50 {
		for _, via := range []string{"b", "a"} {
			if !slices.Contains(ids, fmt.Sprintf("%s-%d", via, i)) {
				t.Fatalf("the editor lacks %s-%d", via, i)
			}
		}
	}
}

// page is an editor open in headless Chromium.
type page struct {
	t   *testing.T
	tab context.Context
}

// openEditor logs a browser in on node p (a login link from its config)
// and opens the editor of scene name there.
func openEditor(t *testing.T, c *cluster, p *dshtest.Process, name string) *page {
	t.Helper()
	if editor.Assets() == nil {
		testenv.Missing(t, "editor not built; run make editor (make test builds it)")
	}
	pg := &page{t: t, tab: testenv.Browser(t)}
	if err := chromedp.Do(pg.tab); err != nil { // start it on the tab's own context, which lives as long as the test
		t.Fatal(err)
	}
	link, err := c.cli(p, "login", "--next", "/dsh-excalidraw/#"+name)
	if err != nil {
		t.Fatalf("dsh login: %v\n%s", err, link)
	}
	pg.run("open the editor", chromedp.Navigate(strings.TrimSpace(link)))
	pg.wait("the editor of "+name, fmt.Sprintf(`window.dshEditor && window.dshEditor.name === %q && document.querySelector(".excalidraw canvas") !== null`, name))
	return pg
}

func (pg *page) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	pg.t.Helper()
	ctx, cancel := context.WithTimeout(pg.tab, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		shot(pg.t, pg.tab, what)
		pg.t.Fatalf("%s: %v", what, err)
	}
}

// wait polls a JS condition until it holds (30 s at most).
func (pg *page) wait(what, cond string) {
	pg.t.Helper()
	ctx, cancel := context.WithTimeout(pg.tab, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingInterval(5*time.Millisecond))); err != nil {
		shot(pg.t, pg.tab, what)
		pg.t.Fatalf("waiting for %s: %v", what, err)
	}
}

func evalStrings(t *testing.T, tab context.Context, js string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// shot saves a screenshot of the tab for a failure or a look.
func shot(t *testing.T, tab context.Context, what string) {
	ctx, cancel := context.WithTimeout(tab, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	dir := os.Getenv("DSH_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "dsh-browser-failures")
	}
	_ = os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()+"-"+what)+".png")
	if os.WriteFile(path, png, 0o644) == nil {
		t.Logf("screenshot: %s", path)
	}
}

// A person drawing while their node has lost the database keeps the
// drawing: the save is refused with store_unavailable, the page says
// so and keeps the stroke, and saves it by itself once the database is
// back; the other node then has it.
func TestEditorWhileTheDatabaseIsDown(t *testing.T) {
	c := newCluster(t, 1)
	b := c.nodes[0]
	u, _ := url.Parse(c.dsn)
	r := newRelay(t, u.Host)
	a := dshtest.Start(t, c.bin, nodeYAML, "DSH_STORE_DSN="+r.through(t, c.dsn))
	c.call(b, http.MethodPost, "/scenes", map[string]any{"name": "down"}, nil)
	pg := openEditor(t, c, a, "down")
	pg.wait("revision 1 saved", `window.dshEditor.state().revision === 1 && window.dshEditor.state().status === "saved"`)

	r.setCut(true)
	evalStrings(t, pg.tab, `(() => {
		const {api, lib} = window.dshEditor;
		const [el] = lib.convertToExcalidrawElements([{type: "rectangle", id: "drawn-while-down", x: 40, y: 40, width: 160, height: 90, backgroundColor: "#ffc9c9", fillStyle: "solid"}], {regenerateIds: false});
		api.updateScene({elements: [...api.getSceneElementsIncludingDeleted(), el], captureUpdate: lib.CaptureUpdateAction.IMMEDIATELY});
		return [];
	})()`)
	pg.run("save", chromedp.KeyEvent("s", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	pg.wait("the page to say the database is away", `window.dshEditor.state().dirty && document.body.innerText.includes("cannot reach its database")`)
	shot(t, pg.tab, "database-down")

	r.setCut(false)
	pg.wait("the stroke saved once the database is back", `window.dshEditor.state().revision === 2 && window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty`)
	var sc struct {
		Revision int64 `json:"revision"`
		Scene    struct {
			Elements []struct{ ID string } `json:"elements"`
		} `json:"scene"`
	}
	c.call(b, http.MethodGet, "/scenes/down", nil, &sc)
	if sc.Revision != 2 || len(sc.Scene.Elements) != 1 || sc.Scene.Elements[0].ID != "drawn-while-down" {
		t.Fatalf("node B reads %+v, want the stroke at revision 2", sc)
	}
}
