package editor_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// benchBoard is one open board of BenchmarkAgentWriteToVisible: its tab,
// and what the tab received while the writes ran.
type benchBoard struct {
	name string
	size int
	tab  context.Context
	// lat is from the write's start to the element in the page's scene,
	// watched while the write runs (the live room shows an agent's write
	// before it is stored: room.Server.Preview); apply to the agent's
	// answer (the write stored).
	lat   []time.Duration
	apply []time.Duration
	// serve is from the write's start to its delta at a second viewer of
	// the board (a plain HTTP client, see observe): the stored commit's
	// stream, which pages out of the room follow.
	serve []time.Duration
	seen  chan seenDelta

	mu       sync.Mutex
	counting bool
	urls     map[network.RequestID]string
	bytes    map[string]int64 // received body bytes by path ("stream" for the scene's events)
	reads    int              // GETs of the whole scene while counting
}

// count listens to what the tab receives from dsh: body bytes per
// request path (Chromium's dataReceived, which streams report chunk by
// chunk: the scene's deltas and the scene list's revision events, which
// carry the other board's commits too, so the figure is an upper bound)
// and reads of the whole scene.
func (bd *benchBoard) count(w *world) {
	bd.urls, bd.bytes = map[network.RequestID]string{}, map[string]int64{}
	err := chromedp.Listen(bd.tab, func(ev any) {
		bd.mu.Lock()
		defer bd.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			u, err := url.Parse(e.Request.URL)
			if err != nil {
				return
			}
			bd.urls[e.RequestID] = u.Path
			if bd.counting && e.Request.Method == "GET" && u.Path == "/dsh-excalidraw/api/scenes/"+bd.name {
				bd.reads++
			}
		case *network.EventResponseReceived:
			if u, err := url.Parse(e.Response.URL); err == nil && bd.urls[e.RequestID] == "" {
				bd.urls[e.RequestID] = u.Scheme + ":" + u.Path
			}
		case *network.EventDataReceived:
			// A blob: or data: URL is the page reading its own memory (a
			// thumbnail's picture), not bytes from dsh.
			if path := bd.urls[e.RequestID]; bd.counting && !strings.HasPrefix(path, "blob:") && !strings.HasPrefix(path, "data:") {
				bd.bytes[path] += e.DataLength
			}
		}
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

// seenDelta is an event observe read: its revision and when.
type seenDelta struct {
	revision int64
	at       time.Time
}

// observe opens the board's event stream for deltas since revision
// since, as a second viewer would, and sends each event's revision with
// the time it was read. The stream ends with the test.
func observe(w *world, name string, since int64) chan seenDelta {
	w.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/dsh-excalidraw/api/scenes/%s/events?since=%d", w.host.URL(), name, since), nil)
	req.Header.Set("Authorization", "Bearer "+w.host.Token())
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		w.t.Fatalf("events of %s: %s", name, resp.Status)
	}
	out := make(chan seenDelta, 1024)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			// Every event (a delta, or a resync) has the revision.
			if line := sc.Text(); strings.HasPrefix(line, "data: ") {
				at := time.Now()
				var d struct {
					Revision int64 `json:"revision"`
				}
				if json.Unmarshal([]byte(line[len("data: "):]), &d) == nil {
					out <- seenDelta{d.Revision, at}
				}
			}
		}
	}()
	return out
}

// BenchmarkAgentWriteToVisible measures, from an agent's MCP apply call to
// the new element being in the open editor's scene (the page watched
// while the write runs), one write per iteration on each of two boards
// open at once, of 10 and of 2,000 elements; it reports each one's p50
// and p99, the ratio of the p50s (the goal: at most 1.2), the
// agent's answer (apply: the write stored) and the stored commit's
// stream (serve) with their ratios, and the bytes the page received per
// one-element commit (goal: at most 4 KB whatever the board's size),
// with the reads of the whole scene it made (0 with deltas). Run with
// -benchtime=60x or more (at least 50 writes):
//
//	go test -run '^$' -bench AgentWriteToVisible -benchtime=60x ./plugins/excalidraw/editor/
func BenchmarkAgentWriteToVisible(b *testing.B) {
	w := newWorld(b)
	boards := []*benchBoard{{name: "small", size: 10, tab: w.newTab()}, {name: "large", size: 2000, tab: w.newTab()}}
	for _, bd := range boards {
		w.tool("excalidraw_scene_create", map[string]any{"name": bd.name})
		for at := 0; at < bd.size; at += 500 {
			var ops []any
			for i := at; i < min(bd.size, at+500); i++ {
				ops = append(ops, map[string]any{"op": "add", "element": map[string]any{"type": "rectangle", "id": fmt.Sprintf("base-%d", i),
					"x": (i % 50) * 120, "y": 2000 + (i/50)*90, "width": 100, "height": 70}})
			}
			w.tool("excalidraw_scene_apply", map[string]any{"name": bd.name, "expected_revision": at/500 + 1, "operations": ops})
		}
		bd.count(w)
		w.openScene(bd.tab, bd.name)
		w.waitJS(bd.tab, "the stream live", `window.dshEditor.state().link === "live"`)
		if n := evalJS[int](w, bd.tab, `window.dshEditor.api.getSceneElements().length`); n != bd.size {
			b.Fatalf("%s shows %d elements, want %d", bd.name, n, bd.size)
		}
		bd.mu.Lock()
		bd.counting = true
		bd.mu.Unlock()
		bd.seen = observe(w, bd.name, int64(evalJS[int](w, bd.tab, `window.dshEditor.state().revision`)))
	}

	for i := 0; b.Loop(); i++ {
		for _, bd := range boards {
			id := fmt.Sprintf("agent-%d", i)
			rev := evalJS[int](w, bd.tab, `window.dshEditor.state().revision`)
			// The page is watched from before the write starts until
			// the element is in its scene.
			watching := make(chan struct{})
			visible := make(chan error, 1)
			var visibleAt time.Time
			go func() {
				ctx, cancel := context.WithTimeout(bd.tab, 60*time.Second)
				defer cancel()
				close(watching)
				_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`new Promise(resolve => {
					const seen = () => window.dshEditor.api.getSceneElements().some(e => e.id === %q);
					const poll = () => seen() ? resolve(true) : setTimeout(poll, 1);
					poll();
				})`, id), chromedp.EvalAwaitPromise))
				visibleAt = time.Now()
				visible <- err
			}()
			<-watching
			start := time.Now()
			w.tool("excalidraw_scene_apply", map[string]any{"name": bd.name, "expected_revision": rev, "operations": []any{
				map[string]any{"op": "add", "element": map[string]any{"type": "rectangle", "id": id, "x": (i % 10) * 120, "y": (i / 10) * 90, "width": 100, "height": 70}},
			}})
			bd.apply = append(bd.apply, time.Since(start))
			if err := <-visible; err != nil {
				b.Fatalf("watching %s for %s: %v", bd.name, id, err)
			}
			bd.lat = append(bd.lat, visibleAt.Sub(start))
			for seen := false; !seen; {
				select {
				case d, ok := <-bd.seen:
					if !ok {
						b.Fatalf("the second viewer's stream of %s ended", bd.name)
					}
					if seen = d.revision > int64(rev); seen {
						bd.serve = append(bd.serve, d.at.Sub(start))
					}
				case <-time.After(30 * time.Second):
					b.Fatalf("the second viewer of %s did not see revision %d", bd.name, rev+1)
				}
			}
		}
	}
	b.StopTimer()
	pct := func(d []time.Duration, p float64) float64 {
		d = slices.Clone(d)
		slices.Sort(d)
		return float64(d[min(len(d)-1, int(p*float64(len(d))))].Microseconds()) / 1000
	}
	for _, bd := range boards {
		bd.mu.Lock()
		var total int64
		var parts []string
		for path, n := range bd.bytes {
			total += n
			parts = append(parts, fmt.Sprintf("%s %d", strings.TrimPrefix(path, "/dsh-excalidraw/api"), n))
		}
		reads := bd.reads
		bd.mu.Unlock()
		slices.Sort(parts)
		n := float64(len(bd.lat))
		b.Logf("%s (%d elements): %d writes, received %v, %d scene reads", bd.name, bd.size, len(bd.lat), parts, reads)
		b.ReportMetric(pct(bd.lat, 0.50), bd.name+"-p50-ms")
		b.ReportMetric(pct(bd.lat, 0.99), bd.name+"-p99-ms")
		b.ReportMetric(pct(bd.apply, 0.50), bd.name+"-apply-p50-ms")
		b.ReportMetric(pct(bd.serve, 0.50), bd.name+"-serve-p50-ms")
		b.ReportMetric(float64(total)/n, bd.name+"-bytes/commit")
		b.ReportMetric(float64(reads)/n, bd.name+"-reads/commit")
	}
	b.ReportMetric(pct(boards[1].lat, 0.50)/pct(boards[0].lat, 0.50), "p50-ratio")
	b.ReportMetric(pct(boards[1].apply, 0.50)/pct(boards[0].apply, 0.50), "apply-p50-ratio")
	b.ReportMetric(pct(boards[1].serve, 0.50)/pct(boards[0].serve, 0.50), "serve-p50-ratio")
	b.ReportMetric(0, "ns/op")
}
