package editor_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkStrokeToOtherScreen is person A drawing a freehand stroke in
// one Chromium page and person B watching it in another (each in a
// browser context of their own, both in the board's live room): for every
// move of A's pointer, the time from the browser dispatching it in A's
// page (a capturing pointermove listener) to B's page holding the stroke
// with that many points at a frame (a requestAnimationFrame loop: the
// frame it is painted in). One iteration is a stroke of 40 moves; the
// p50 and p99 over all moves are reported in ms, both pages' clocks being
// the machine's.
func BenchmarkStrokeToOtherScreen(b *testing.B) {
	w := newWorld(b)
	a, bt := w.twoPeople("strokes")
	evalJS[bool](w, a, `(() => {
		window.__moves = [];
		window.addEventListener("pointermove", (e) => { if (e.buttons) window.__moves.push(performance.timeOrigin + e.timeStamp); }, true);
		return true;
	})()`)
	evalJS[bool](w, bt, `(() => {
		window.__seen = {}; // element id → points length → when first painted
		const frame = () => {
			const now = performance.timeOrigin + performance.now();
			for (const e of window.dshEditor.api.getSceneElementsIncludingDeleted()) {
				if (e.type !== "freedraw") continue;
				const s = (window.__seen[e.id] ||= {});
				if (s[e.points.length] === undefined) s[e.points.length] = now;
			}
			requestAnimationFrame(frame);
		};
		requestAnimationFrame(frame);
		return true;
	})()`)
	var lat []float64
	const moves = 40
	for i := 0; b.Loop(); i++ {
		evalJS[bool](w, a, `(window.__moves = [], window.dshEditor.api.setActiveTool({type: "freedraw"}), true)`)
		x0, y0 := w.screenPoint(a, 300, float64(100+(i%8)*40))
		w.run(a, chromedp.MouseEvent(chromedp.MouseMoved, x0, y0),
			chromedp.MouseEvent(chromedp.MousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)))
		for k := 1; k <= moves; k++ {
			w.run(a, chromedp.MouseEvent(chromedp.MouseMoved, x0+float64(k*6), y0+float64(k%5), chromedp.ButtonLeft))
			time.Sleep(16 * time.Millisecond) // a hand moves at about a frame a move
		}
		w.run(a, chromedp.MouseEvent(chromedp.MouseReleased, x0+moves*6, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)))
		id := evalJS[string](w, a, `(() => { const f = window.dshEditor.api.getSceneElements().filter(e => e.type === "freedraw"); return f[f.length - 1].id; })()`)
		sent := evalJS[[]float64](w, a, `window.__moves`)
		w.waitJS(bt, "A's whole stroke at B", fmt.Sprintf(`(() => { const s = window.__seen[%q]; return !!s && Object.keys(s).some(n => Number(n) >= %d); })()`, id, len(sent)+1))
		seen := evalJS[map[string]float64](w, bt, fmt.Sprintf(`window.__seen[%q]`, id))
		// After A's k-th move the stroke has k+1 points; B painted it at
		// the first frame holding at least that many.
		for k, at := range sent {
			first := 0.0
			for n, t := range seen {
				var pts int
				fmt.Sscan(n, &pts)
				if pts >= k+2 && (first == 0 || t < first) {
					first = t
				}
			}
			if first > 0 {
				lat = append(lat, first-at)
			}
		}
	}
	if len(lat) == 0 {
		b.Fatal("no move of A's reached B")
	}
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "move-to-paint-p50-ms")
	b.ReportMetric(lat[len(lat)*99/100], "move-to-paint-p99-ms")
	b.ReportMetric(float64(len(lat)), "moves")
}
