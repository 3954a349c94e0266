package editor_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// coldLoadBudget is the most a first visit to a board may transfer (every
// response's bytes on the wire, headers included) until its canvas is up
// and its fonts are in; the board's live streams, which stay open, are not
// counted. Sent uncompressed, the page was 1.6 MB; compressed it is
// about 0.5 MB.
const coldLoadBudget = 700 << 10

// slowLink is the connection a cold load is measured on: 10 Mbit/s down,
// 2 Mbit/s up, 40 ms from request to response.
var slowLink = network.Conditions{Latency: 40, DownloadThroughput: 10e6 / 8, UploadThroughput: 2e6 / 8}

// transfer is what a tab received from dsh: encoded bytes (as sent, with
// headers) per resource, by the request's path.
type transfer struct {
	mu       sync.Mutex
	counting bool
	paths    map[network.RequestID]string
	kinds    map[network.RequestID]network.ResourceType
	coding   map[network.RequestID]string
	bytes    map[string]float64
	byKind   map[network.ResourceType]float64
	encoding map[string]string // path → Content-Encoding of its response
	total    float64
}

// listen starts counting what tab receives.
func (tr *transfer) listen(w *world, tab context.Context) {
	tr.paths, tr.kinds, tr.coding = map[network.RequestID]string{}, map[network.RequestID]network.ResourceType{}, map[network.RequestID]string{}
	tr.bytes, tr.byKind, tr.encoding = map[string]float64{}, map[network.ResourceType]float64{}, map[string]string{}
	err := chromedp.Listen(tab, func(ev any) {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			if u, err := url.Parse(e.Request.URL); err == nil && u.Scheme != "data" && u.Scheme != "blob" {
				tr.paths[e.RequestID] = u.Path
			}
		case *network.EventResponseReceived:
			tr.kinds[e.RequestID] = e.Type
			for k, v := range e.Response.Headers {
				if strings.EqualFold(k, "Content-Encoding") {
					tr.coding[e.RequestID] = fmt.Sprint(v)
				}
			}
		case *network.EventLoadingFinished:
			path, ok := tr.paths[e.RequestID]
			if !ok || !tr.counting {
				return
			}
			tr.bytes[path] += e.EncodedDataLength
			tr.byKind[tr.kinds[e.RequestID]] += e.EncodedDataLength
			tr.encoding[path] = tr.coding[e.RequestID]
			tr.total += e.EncodedDataLength
		}
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

// coldLoad opens a board in a new tab with the browser's cache off on a
// slowLink, and reports what it transferred and the milliseconds from
// the navigation's start to the board's canvas. With accept set, the
// browser sends it as its Accept-Encoding ("identity": what a cold load
// costs uncompressed). The other tabs leave dsh first, so that their
// live streams do not hold the browser's connections to it (a first
// visit has no other page of dsh open), and the tab is closed after.
func coldLoad(w *world, name, accept string) (*transfer, float64) {
	w.t.Helper()
	w.run(w.browser, chromedp.Navigate("about:blank"))
	tab, closeTab := chromedp.NewContext(w.browser)
	defer closeTab()
	w.watch(tab)
	tr := &transfer{}
	tr.listen(w, tab)
	link := slowLink
	w.run(tab, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
			return err
		}
		if accept != "" {
			if _, err := cdp.Call(ctx, t, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Encoding": accept}}); err != nil {
				return err
			}
		}
		_, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: []*network.Conditions{&link}})
		return err
	}))
	tr.mu.Lock()
	tr.counting = true
	tr.mu.Unlock()
	w.run(tab, chromedp.Navigate(w.host.URL()+"/dsh-excalidraw/#"+name))
	// The poll notes when it first sees the canvas, in the page's own
	// clock (milliseconds since the navigation started).
	w.waitJS(tab, "the canvas of "+name, fmt.Sprintf(`window.dshEditor && window.dshEditor.name === %q && document.querySelector(".excalidraw canvas") !== null && (window.dshCanvasAt ??= performance.now(), true)`, name))
	canvasAt := evalJS[float64](w, tab, `window.dshCanvasAt`)
	evalJS[bool](w, tab, `document.fonts.ready.then(() => true)`)
	tr.mu.Lock()
	tr.counting = false
	tr.mu.Unlock()
	w.keepScreenshot(tab, "cold-load-"+cmp.Or(accept, "as-served"))
	if errs := w.consoleErrors(tab); len(errs) > 0 {
		w.t.Errorf("console errors on a cold load: %q", errs)
	}
	return tr, canvasAt
}

// TestColdLoad opens a board as a first visit on a 10 Mbit/s link would
// (no cache) and checks what the page transfers to get there: under
// budget, the bundle compressed, and far less than the same load
// uncompressed. How long it took is logged, not asserted (see
// BenchmarkColdLoad for it as a figure).
func TestColdLoad(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "first", "elements": []any{
		map[string]any{"type": "rectangle", "id": "box", "x": 0, "y": 0, "width": 120, "height": 60, "label": map[string]any{"text": "hello"}},
	}})
	plain, plainAt := coldLoad(w, "first", "identity")
	tr, canvasAt := coldLoad(w, "first", "")

	tr.mu.Lock()
	defer tr.mu.Unlock()
	plain.mu.Lock()
	defer plain.mu.Unlock()
	paths := slices.Sorted(maps.Keys(tr.bytes))
	for _, p := range paths {
		if tr.bytes[p] >= 10<<10 {
			t.Logf("%8.0f B  %-4s %s (%.0f B uncompressed)", tr.bytes[p], tr.encoding[p], p, plain.bytes[p])
		}
	}
	for kind, n := range tr.byKind {
		t.Logf("%s: %.0f B (%.0f B uncompressed)", kind, n, plain.byKind[kind])
	}
	t.Logf("cold load at 10 Mbit/s, 40 ms: %.0f B transferred, canvas after %.0f ms", tr.total, canvasAt)
	t.Logf("the same uncompressed: %.0f B transferred, canvas after %.0f ms", plain.total, plainAt)
	if tr.total > coldLoadBudget {
		t.Errorf("a cold load transferred %.0f B, over the budget of %d B", tr.total, coldLoadBudget)
	}
	if tr.total > plain.total/2 {
		t.Errorf("a cold load transferred %.0f B, uncompressed %.0f B: compression should halve it at least", tr.total, plain.total)
	}
	for _, p := range paths {
		if strings.HasPrefix(p, "/dsh-excalidraw/assets/app/") && strings.HasSuffix(p, ".js") && tr.bytes[p] > 20<<10 && tr.encoding[p] == "" {
			t.Errorf("%s arrived uncompressed (%.0f B)", p, tr.bytes[p])
		}
	}
}

// BenchmarkColdLoad reports a cold load's bytes and time to the canvas
// on the 10 Mbit/s link, one fresh tab per iteration; DSH_ACCEPT_ENCODING=identity
// (or gzip) measures what the browser would get asking for only that.
func BenchmarkColdLoad(b *testing.B) {
	w := newWorld(b)
	w.tool("excalidraw_scene_create", map[string]any{"name": "first"})
	accept := os.Getenv("DSH_ACCEPT_ENCODING")
	var bytes, ms float64
	for b.Loop() {
		tr, canvasAt := coldLoad(w, "first", accept)
		tr.mu.Lock()
		bytes += tr.total
		tr.mu.Unlock()
		ms += canvasAt
	}
	b.ReportMetric(bytes/float64(b.N), "B/load")
	b.ReportMetric(ms/float64(b.N), "ms-to-canvas")
}
