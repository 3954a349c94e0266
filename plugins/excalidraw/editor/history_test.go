package editor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestHistoryUndoAgentChange: an agent adds a cache box (with a label and
// an arrow to it) with a note. In the person's tab the History panel
// shows the commit attributed to the agent, its summary and its note;
// clicking it selects the elements it made; "Undo this change" takes them
// off the canvas there and in a second open tab, without a conflict or an
// unsaved edit, and off the disk. The panel then shows this tab's undo.
func TestHistoryUndoAgentChange(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "board", "elements": []any{
		map[string]any{"type": "rectangle", "id": "a", "x": 0, "y": 0, "width": 160, "height": 80},
		map[string]any{"type": "ellipse", "id": "b", "x": 0, "y": 300, "width": 100, "height": 100},
	}})
	tab, other := w.browser, w.newTab()
	w.openScene(tab, "board")
	w.openScene(other, "board")

	res := w.tool("batch_create", map[string]any{"name": "board", "options": map[string]any{"note": "add the cache tier"}, "elements": []any{
		map[string]any{"ref": "cache", "id": "cache", "type": "rectangle", "x": 400, "y": 0, "width": 160, "height": 80, "label": map[string]any{"text": "Cache"}},
		map[string]any{"type": "arrow", "id": "to-cache", "startElementId": "a", "endElementId": "cache"},
	}})
	if res["persisted"] != true {
		t.Fatalf("batch_create: %v", res)
	}
	for _, tb := range []context.Context{tab, other} {
		w.waitJS(tb, "the agent's cache box", pageHasJS("cache")+" && "+pageHasJS("to-cache")+` && window.dshEditor.state().revision === 2`)
	}

	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="history"]`)))
	const entry2 = `.dsh-history .dsh-entry[data-revision="2"]`
	w.waitJS(tab, "the agent's commit in the history", `document.querySelector('`+entry2+`') !== null && document.querySelector('.dsh-entry[data-revision="1"]') !== null`)
	text := evalJS[string](w, tab, `document.querySelector('`+entry2+`').textContent`)
	// The writer as the journal names it (the name its credential gives).
	writer := evalJS[string](w, tab, `fetch("/dsh-excalidraw/api/scenes/board/log?limit=1").then(r => r.json()).then(d => d.entries[0].name)`)
	for _, want := range []string{writer, "created 3, changed 1", "add the cache tier", "r2", "just now", "batch_create", "Undo this change"} {
		if !strings.Contains(text, want) {
			t.Errorf("history entry %q lacks %q", text, want)
		}
	}

	// Clicking the entry selects what it touched (the box rather than its
	// label, the arrow, and the box the arrow now starts at) and brings it
	// into view.
	w.run(tab, chromedp.Click(chromedp.CSS(entry2+` .dsh-entry-main`)))
	w.waitJS(tab, "the entry's elements selected", `(() => {
		const s = window.dshEditor.api.getAppState().selectedElementIds;
		return s.cache && s["to-cache"] && s.a;
	})()`)
	selected := evalJS[[]string](w, tab, `Object.keys(window.dshEditor.api.getAppState().selectedElementIds).sort()`)
	if strings.Join(selected, ",") != "a,cache,to-cache" {
		t.Errorf("selected %v, want a,cache,to-cache", selected)
	}
	if s := w.state(tab); s.Status != "saved" || s.Dirty {
		t.Errorf("selecting marked an edit: %+v", s)
	}
	w.keepScreenshot(tab, "history-panel")

	// Offline, the undo fails and says why; nothing changes.
	w.setOffline(tab, true)
	w.run(tab, chromedp.Click(chromedp.CSS(entry2+` button[data-action="undo"]`)))
	w.waitJS(tab, "the failed undo's message", `document.querySelector('[data-testid="notice"][role="alert"]')?.textContent.match(/Could not undo the change by .+: dsh is not reachable/) != null`)
	w.setOffline(tab, false)
	w.waitJS(tab, "the stream back", `window.dshEditor.state().link === "live"`)
	if s := w.state(tab); s.Revision != 2 || s.Status != "saved" {
		t.Fatalf("after the failed undo: %+v", s)
	}

	w.run(tab, chromedp.Click(chromedp.CSS(entry2+` button[data-action="undo"]`)))
	for _, tb := range []context.Context{tab, other} {
		w.waitJS(tb, "the undo on the canvas", `!(`+pageHasJS("cache")+`) && !(`+pageHasJS("to-cache")+`) && window.dshEditor.state().revision === 3`)
		if s := w.state(tb); s.Status != "saved" || s.Dirty {
			t.Errorf("after the undo: %+v", s)
		}
		if ids := w.pageIDs(tb); strings.Join(ids, ",") != "a,b" {
			t.Errorf("after the undo the page shows %v, want a,b", ids)
		}
	}
	if ids := w.liveOnDisk("board"); strings.Join(ids, ",") != "a,b" {
		t.Fatalf("after the undo the file has %v, want a,b", ids)
	}
	if regexp.MustCompile(`"boundElements": \[\s*\{`).Match(w.sceneFile("board")) {
		t.Errorf("the box the arrow started at is still bound to it:\n%s", w.sceneFile("board"))
	}
	w.waitJS(tab, "the undo's notice", fmt.Sprintf(`(document.querySelector('[data-testid="notice"]')?.textContent || "").startsWith("Undid the change by " + %q)`, writer))

	// The panel follows: this tab's undo on top, the agent's commit marked.
	const entry3 = `.dsh-history .dsh-entry[data-revision="3"]`
	w.waitJS(tab, "the undo in the history", `document.querySelector('`+entry3+`') !== null`)
	if text := evalJS[string](w, tab, `document.querySelector('`+entry3+`').textContent`); !strings.HasPrefix(text, "you · ") || !strings.Contains(text, "undo of r2") {
		t.Errorf("the undo's entry reads %q", text)
	}
	if text := evalJS[string](w, tab, `document.querySelector('`+entry2+`').textContent`); !strings.Contains(text, "undone in r3") {
		t.Errorf("the agent's entry reads %q after the undo", text)
	}
	w.keepScreenshot(tab, "history-after-undo")
	for _, tb := range []context.Context{tab, other} {
		if shown := evalJS[string](w, tb, `[...document.querySelectorAll('.dsh-conflict[role="dialog"], [data-testid="overwrite"]')].map(e => e.textContent).join(" | ")`); shown != "" {
			t.Errorf("after the undo the page shows %q", shown)
		}
		w.noConsoleErrorsBut(tb, "ERR_INTERNET_DISCONNECTED") // the undo tried offline
	}

	// The history panel in the other tab opens on the same story.
	w.run(other, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="history"]`)))
	w.waitJS(other, "the other tab's history", `document.querySelector('`+entry3+`') !== null`)
	// (The same person: their other tab calls it theirs too.)
	if who := evalJS[string](w, other, `document.querySelector('`+entry3+` [data-testid="who"]').textContent`); who != "you" {
		t.Errorf("in another tab the undo is by %q, want you", who)
	}
}

// TestHistoryFollowsLiveAndLoadsMore: with the panel open, an agent's
// commit appears in it as it lands; opened on a longer history, the panel
// shows the newest 20 entries and "Load more" brings the older ones.
func TestHistoryFollowsLiveAndLoadsMore(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "busy"})
	tab := w.browser
	w.openScene(tab, "busy")
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="history"]`)))
	w.waitJS(tab, "the first entry", `document.querySelectorAll('.dsh-history .dsh-entry').length === 1`)

	w.tool("excalidraw_scene_apply", map[string]any{"name": "busy", "expected_revision": 1, "operations": []any{
		map[string]any{"op": "add", "element": map[string]any{"type": "rectangle", "id": "r2", "x": 0, "y": 0, "width": 50, "height": 50}},
	}})
	w.waitJS(tab, "the agent's commit in the open panel", `document.querySelector('.dsh-history .dsh-entry')?.dataset.revision === "2"`)

	// Closed while more commits land, it opens on the newest page.
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-history button[aria-label="Close history"]`)))
	w.waitJS(tab, "the panel closed", `document.querySelector('.dsh-history') === null`)
	for i := 3; i <= 24; i++ {
		w.tool("excalidraw_scene_apply", map[string]any{"name": "busy", "expected_revision": i - 1, "operations": []any{
			map[string]any{"op": "add", "element": map[string]any{"type": "rectangle", "id": fmt.Sprintf("r%d", i), "x": 60 * i, "y": 0, "width": 50, "height": 50}},
		}})
	}
	w.waitJS(tab, "the page at revision 24", `window.dshEditor.state().revision === 24`)
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="history"]`)))
	revisions := `[...document.querySelectorAll('.dsh-history .dsh-entry')].map(e => +e.dataset.revision)`
	w.waitJS(tab, "the first page", revisions+`[0] === 24 && `+revisions+`.length === 20`)
	w.waitJS(tab, "Load more", `document.querySelector('.dsh-history button[data-action="more"]') !== null`)
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-history button[data-action="more"]`)))
	w.waitJS(tab, "every entry", revisions+`.length === 24 && !document.querySelector('.dsh-history button[data-action="more"]')`)
	got := evalJS[[]int](w, tab, revisions)
	for i, r := range got {
		if r != 24-i {
			t.Fatalf("entries out of order: %v", got)
		}
	}
}

// TestOverwriteBannerBringsVersionBack: tab B saves a box; tab A, not
// following live changes, saves on the older revision and picks
// "Overwrite anyway". B's canvas follows the overwrite and B is told whose
// it was, with "Bring my version back", which puts B's box back and takes
// A's away, in both tabs and on disk. A, whose overwrite it was, is not
// told.
func TestOverwriteBannerBringsVersionBack(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "shared", "elements": []any{
		map[string]any{"type": "rectangle", "id": "base", "x": 0, "y": 0, "width": 120, "height": 70},
	}})
	a, b := w.newTab(), w.browser
	w.openScene(a, "shared")
	w.openScene(b, "shared")
	evalJS[bool](w, a, `(window.dshEditor.setFollow(false), true)`)
	w.waitJS(a, "follow off", `window.dshEditor.state().follow === false`)

	w.draw(b, "from-b", 200, 0)
	w.pressSave(b)
	w.waitJS(b, "tab B's save", `window.dshEditor.state().revision === 2 && window.dshEditor.state().status === "saved"`)

	w.draw(a, "from-a", 0, 200)
	w.pressSave(a)
	w.waitJS(a, "the conflict dialog", `document.querySelector('[role="dialog"] button[data-action="overwrite"]') !== null`)
	w.run(a, chromedp.Click(chromedp.CSS(`[role="dialog"] button[data-action="overwrite"]`)))
	w.waitJS(a, "the forced save", `window.dshEditor.state().revision === 3 && window.dshEditor.state().status === "saved"`)
	if ids := w.liveOnDisk("shared"); strings.Join(ids, ",") != "base,from-a" {
		t.Fatalf("after the overwrite the file has %v", ids)
	}

	const banner = `document.querySelector('[data-testid="overwrite"]')`
	w.waitJS(b, "the overwrite banner", banner+` !== null && window.dshEditor.state().revision === 3`)
	if text := evalJS[string](w, b, banner+`.textContent`); !strings.Contains(text, "You replaced this board from another tab") || !strings.Contains(text, "Bring my version back") {
		t.Errorf("banner reads %q", text)
	}
	if ids := w.pageIDs(b); strings.Join(ids, ",") != "base,from-a" {
		t.Errorf("tab B shows %v under the banner, want the overwrite", ids)
	}
	w.keepScreenshot(b, "overwrite-banner")

	// A follows again: its own overwrite is not news to it.
	evalJS[bool](w, a, `(window.dshEditor.setFollow(true), true)`)
	w.waitJS(a, "tab A live", `window.dshEditor.state().link === "live"`)

	w.run(b, chromedp.Click(chromedp.CSS(`[data-testid="overwrite"] button[data-action="bring-back"]`)))
	for _, tb := range []context.Context{b, a} {
		w.waitJS(tb, "B's version back", pageHasJS("from-b")+` && !(`+pageHasJS("from-a")+`) && window.dshEditor.state().revision === 4`)
		if s := w.state(tb); s.Status != "saved" || s.Dirty {
			t.Errorf("after bringing it back: %+v", s)
		}
	}
	w.waitJS(b, "the banner gone and the notice", banner+` === null && document.querySelector('[data-testid="notice"]')?.textContent.includes("Your version is back")`)
	w.keepScreenshot(b, "overwrite-brought-back")
	if ids := w.liveOnDisk("shared"); strings.Join(ids, ",") != "base,from-b" {
		t.Fatalf("after bringing B's version back the file has %v", ids)
	}
	// Long enough for A's stream to have delivered revisions 3 and 4.
	evalJS[bool](w, a, `new Promise(r => setTimeout(() => r(true), 500))`)
	if n := evalJS[int](w, a, `document.querySelectorAll('[data-testid="overwrite"]').length`); n != 0 {
		t.Errorf("tab A was told of its own overwrite")
	}
	for _, tb := range []context.Context{a, b} {
		w.noConsoleErrorsBut(tb, "409 (Conflict)") // tab A's stale save, which the dialog answered
	}
}

// TestSceneListSaysWhoChangedIt: the scene list says when and by whom
// each scene was last changed: an agent by its token's name (here the
// host's own, "local"), never by the name its MCP client claims
// ("browser-test-agent").
func TestSceneListSaysWhoChangedIt(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "named"})
	w.run(w.browser, chromedp.Reload())
	w.waitJS(w.browser, "the scene in the list", sceneButtonJS("named")+` !== undefined`)
	meta := evalJS[string](w, w.browser, sceneButtonJS("named")+`.querySelector('[data-testid="meta"]').textContent`)
	if meta != "changed just now by agent local" {
		t.Fatalf("list row says %q", meta)
	}
}

// noConsoleErrorsBut fails on console errors other than those that
// contain one of the expected strings.
func (w *world) noConsoleErrorsBut(tab context.Context, expected ...string) {
	w.t.Helper()
	for _, e := range w.consoleErrors(tab) {
		if !slices.ContainsFunc(expected, func(x string) bool { return strings.Contains(e, x) }) {
			w.t.Errorf("console error: %s", e)
		}
	}
}

// pageIDs are the ids of the page's live elements, sorted, leaving out
// bound text (labels).
func (w *world) pageIDs(tab context.Context) []string {
	w.t.Helper()
	return evalJS[[]string](w, tab, `window.dshEditor.api.getSceneElements().filter(e => !e.containerId).map(e => e.id).sort()`)
}

// liveOnDisk are the ids of the scene file's elements that are not
// deleted, sorted.
func (w *world) liveOnDisk(name string) []string {
	w.t.Helper()
	var doc struct {
		Elements []struct {
			ID        string `json:"id"`
			IsDeleted bool   `json:"isDeleted"`
		} `json:"elements"`
	}
	if err := json.Unmarshal(w.sceneFile(name), &doc); err != nil {
		w.t.Fatal(err)
	}
	var ids []string
	for _, el := range doc.Elements {
		if !el.IsDeleted {
			ids = append(ids, el.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// keepScreenshot saves the tab as DSH_SCREENSHOTS/<what>.png when that
// is set, to look at the page while working on it.
func (w *world) keepScreenshot(tab context.Context, what string) {
	dir := os.Getenv("DSH_SCREENSHOTS")
	if dir == "" {
		return
	}
	// Let fonts, an animated scroll or a transition settle.
	evalJS[bool](w, tab, `document.fonts.ready.then(() => new Promise(r => setTimeout(() => r(true), 400)))`)
	ctx, cancel := context.WithTimeout(tab, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		w.t.Logf("screenshot: %v", err)
		return
	}
	path := filepath.Join(dir, fmt.Sprintf("%s.png", what))
	if err := os.MkdirAll(dir, 0o755); err == nil && os.WriteFile(path, png, 0o644) == nil {
		w.t.Logf("screenshot: %s", path)
	}
}
