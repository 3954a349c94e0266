package editor_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDrawAndSave is the person's path: log in through the link, create a
// scene in the page, draw through Excalidraw's API, press Ctrl+S. The file
// on disk has the element, and /health shows the page's mounted,
// canvas-ready and saved evidence with the sha256 of those bytes.
func TestDrawAndSave(t *testing.T) {
	w := newWorld(t)
	tab := w.browser

	w.run(tab,
		chromedp.SendKeys(chromedp.CSS(`.dsh-create input`), "sketch"),
		chromedp.Click(chromedp.CSS(`.dsh-create button`)),
	)
	w.waitJS(tab, "the new scene's editor", `window.dshEditor && window.dshEditor.name === "sketch" && document.querySelector(".excalidraw canvas") !== null`)
	if s := w.state(tab); s.Revision != 1 || s.Status != "saved" {
		t.Fatalf("new scene state: %+v", s)
	}

	w.draw(tab, "box-1", 100, 100)
	w.pressSave(tab)
	w.waitJS(tab, "the save", `window.dshEditor.state().revision === 2 && window.dshEditor.state().status === "saved"`)

	disk := w.sceneFile("sketch")
	if !strings.Contains(string(disk), `"id": "box-1"`) {
		t.Fatalf("the drawn element is not on disk:\n%s", disk)
	}
	// The page keeps the file's source rather than stamping its origin.
	if !strings.Contains(string(disk), `"source": "https://github.com/dshgo/dsh"`) {
		t.Fatalf("the save rewrote the file's source:\n%.300s", disk)
	}
	sum := sha256.Sum256(disk)
	sha := hex.EncodeToString(sum[:])
	if s := w.state(tab); s.SHA256 != sha {
		t.Fatalf("page shows sha %s, disk has %s", s.SHA256, sha)
	}
	// The revision and sha are details, in the status's tooltip.
	shown := evalJS[string](w, tab, `document.querySelector('[data-testid="state"]').title`)
	if !strings.Contains(shown, sha) {
		t.Fatalf("status bar's details say %q, want the sha %s", shown, sha)
	}

	ed := w.editorHealth("sketch")
	seen := map[string]bool{}
	for _, e := range ed["events"].([]any) {
		seen[e.(map[string]any)["event"].(string)] = true
	}
	for _, want := range []string{"mounted", "canvas-ready", "saved"} {
		if !seen[want] {
			t.Errorf("/health lacks %s: %v", want, ed)
		}
	}
	last, _ := ed["lastSaved"].(map[string]any)
	if last == nil || last["sha256"] != sha || last["name"] != "sketch" || last["revision"] != 2.0 {
		t.Fatalf("/health lastSaved %v, want sketch r2 %s", last, sha)
	}
	if ed["mounted"] != true || ed["build"] == "" || ed["width"].(float64) <= 0 {
		t.Fatalf("/health mount evidence: %v", ed)
	}
}

// TestAgentChangeAppearsLive: an agent's MCP apply shows up in the open
// editor without a reload, and the editor's next save builds on it
// instead of conflicting.
func TestAgentChangeAppearsLive(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "board", "elements": []any{
		map[string]any{"type": "rectangle", "id": "a", "x": 0, "y": 0, "width": 100, "height": 60},
	}})
	tab := w.browser
	w.openScene(tab, "board")

	w.tool("excalidraw_scene_apply", map[string]any{"name": "board", "expected_revision": 1, "operations": []any{
		map[string]any{"op": "add", "element": map[string]any{"type": "ellipse", "id": "from-agent", "x": 300, "y": 0, "width": 80, "height": 80}},
	}})
	w.waitJS(tab, "the agent's ellipse in the editor", pageHasJS("from-agent"))
	w.waitJS(tab, "the base revision to follow", `window.dshEditor.state().revision === 2 && window.dshEditor.state().status === "saved"`)

	w.draw(tab, "from-person", 0, 200)
	w.pressSave(tab)
	w.waitJS(tab, "the person's save on top of the agent's", `window.dshEditor.state().revision === 3 && window.dshEditor.state().status === "saved"`)

	// Now a stroke and the agent's change one after the other: in the
	// board's room the stroke is stored as it is drawn (no autosave delay
	// any more), so the agent builds on it, and the page shows both.
	w.draw(tab, "unsaved-stroke", 200, 200)
	w.waitJS(tab, "the stroke stored", `window.dshEditor.state().revision === 4 && window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty`)
	w.tool("excalidraw_scene_apply", map[string]any{"name": "board", "expected_revision": 4, "operations": []any{
		map[string]any{"op": "add", "element": map[string]any{"type": "diamond", "id": "agent-again", "x": 500, "y": 0, "width": 80, "height": 80}},
	}})
	w.waitJS(tab, "both on the canvas", pageHasJS("agent-again")+" && "+pageHasJS("unsaved-stroke"))
	w.waitJS(tab, "the base at the agent's revision", `window.dshEditor.state().revision === 5 && window.dshEditor.state().status === "saved"`)
	disk := string(w.sceneFile("board"))
	for _, id := range []string{`"id": "from-agent"`, `"id": "from-person"`, `"id": "a"`, `"id": "agent-again"`, `"id": "unsaved-stroke"`} {
		if !strings.Contains(disk, id) {
			t.Fatalf("disk lacks %s after the merged save:\n%s", id, disk)
		}
	}
}

// TestStaleSaveConflict: a tab that does not follow live changes saves on
// a stale revision; the two choices appear. Overwrite anyway writes the
// next revision (recorded as ui); Reload from disk shows what is on disk.
func TestStaleSaveConflict(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "shared"})
	a, b := w.browser, w.newTab()
	w.openScene(a, "shared")
	w.openScene(b, "shared")
	evalJS[bool](w, b, `(window.dshEditor.setFollow(false), true)`)
	w.waitJS(b, "follow off", `window.dshEditor.state().follow === false`)

	w.draw(a, "from-a", 0, 0)
	w.pressSave(a)
	w.waitJS(a, "tab A's save", `window.dshEditor.state().revision === 2 && window.dshEditor.state().status === "saved"`)

	w.draw(b, "from-b", 200, 0)
	w.pressSave(b)
	w.waitJS(b, "the conflict dialog", `document.querySelector('.dsh-conflict[role="dialog"]') !== null`)
	buttons := evalJS[[]string](w, b, `[...document.querySelectorAll('[role="dialog"] button')].map(b => b.textContent.trim())`)
	if strings.Join(buttons, "|") != "Take their version|Keep mine (overwrite theirs)" {
		t.Fatalf("conflict choices %q", buttons)
	}
	if s := w.state(b); s.Status != "conflict" || s.Revision != 1 {
		t.Fatalf("tab B state %+v", s)
	}

	w.run(b, chromedp.Click(chromedp.CSS(`[role="dialog"] button[data-action="overwrite"]`)))
	w.waitJS(b, "the forced save", `window.dshEditor.state().revision === 3 && window.dshEditor.state().status === "saved"`)
	disk := string(w.sceneFile("shared"))
	if !strings.Contains(disk, `"id": "from-b"`) || strings.Contains(disk, `"id": "from-a"`) {
		t.Fatalf("overwrite should leave B's scene:\n%s", disk)
	}
	read := w.tool("excalidraw_scene_list", map[string]any{})
	for _, row := range read["scenes"].([]any) {
		r := row.(map[string]any)
		if r["name"] == "shared" && (r["revision"] != 3.0 || r["updatedBy"] != "ui") {
			t.Fatalf("after overwrite: %v", r)
		}
	}

	// Again, and this time B takes the disk's version.
	w.waitJS(a, "tab A following B's overwrite", `window.dshEditor.state().revision === 3`)
	w.draw(a, "from-a-2", 0, 300)
	w.pressSave(a)
	w.waitJS(a, "tab A's second save", `window.dshEditor.state().revision === 4 && window.dshEditor.state().status === "saved"`)
	w.draw(b, "from-b-2", 300, 300)
	w.pressSave(b)
	w.waitJS(b, "the second conflict dialog", `document.querySelector('[role="dialog"]') !== null`)
	w.run(b, chromedp.Click(chromedp.CSS(`[role="dialog"] button[data-action="reload"]`)))
	w.waitJS(b, "the reload", `window.dshEditor.state().revision === 4 && window.dshEditor.state().status === "saved" && !document.querySelector('[role="dialog"]')`)
	onPage := evalJS[[]string](w, b, `window.dshEditor.api.getSceneElements().map(e => e.id).sort()`)
	if strings.Join(onPage, ",") != "from-a-2,from-b" {
		t.Fatalf("after Reload from disk the page shows %v, want the disk's from-a-2,from-b", onPage)
	}
}

// TestErrorAndUnmountReported: an uncaught error in the page reaches
// /health as `error`; leaving the page reports `unmounted`, and /health
// says no editor is mounted.
func TestErrorAndUnmountReported(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "one"})
	w.openScene(w.browser, "one")
	eventually(t, "mounted in /health", func() bool { return w.editorHealth("one")["mounted"] == true })
	evalJS[bool](w, w.browser, `(setTimeout(() => { throw new Error("boom from the page") }), true)`)
	eventually(t, "the error in /health", func() bool {
		return strings.Contains(fmt.Sprint(w.editorHealth("one")["error"]), "boom from the page")
	})
	w.run(w.browser, chromedp.Navigate("about:blank"))
	eventually(t, "unmounted in /health", func() bool {
		ed := w.editorHealth("one")
		evs, _ := ed["events"].([]any)
		if len(evs) == 0 {
			return false
		}
		return ed["mounted"] == false && evs[len(evs)-1].(map[string]any)["event"] == "unmounted"
	})
}

// fidelityElements are what an agent draws: shapes with labels, bound
// arrows, a line, and text in every font family Excalidraw 0.18 ships.
var fidelityElements = []any{
	map[string]any{"type": "rectangle", "id": "api", "x": 0, "y": 0, "width": 180, "height": 80, "label": map[string]any{"text": "API gateway"}},
	map[string]any{"type": "ellipse", "id": "db", "x": 420, "y": 0, "width": 140, "height": 90, "label": map[string]any{"text": "Orders DB"}},
	map[string]any{"type": "diamond", "id": "check", "x": 200, "y": 200, "width": 140, "height": 100, "label": map[string]any{"text": "ok?"}},
	map[string]any{"type": "arrow", "id": "q", "startElementId": "api", "endElementId": "db", "label": map[string]any{"text": "query"}},
	map[string]any{"type": "arrow", "id": "c", "startElementId": "api", "endElementId": "check"},
	map[string]any{"type": "line", "id": "rule", "x": 0, "y": 360, "points": []any{[]any{0, 0}, []any{560, 0}}},
	map[string]any{"type": "text", "id": "t1", "x": 0, "y": 400, "text": "Virgil: the quick brown fox", "fontFamily": 1, "fontSize": 20},
	map[string]any{"type": "text", "id": "t2", "x": 0, "y": 440, "text": "Helvetica: jumps over\nthe lazy dog", "fontFamily": 2, "fontSize": 20},
	map[string]any{"type": "text", "id": "t3", "x": 0, "y": 500, "text": "Cascadia: func main() {}", "fontFamily": 3, "fontSize": 16},
	map[string]any{"type": "text", "id": "t5", "x": 0, "y": 540, "text": "Excalifont: Hello, world!", "fontFamily": 5, "fontSize": 28},
	map[string]any{"type": "text", "id": "t6", "x": 0, "y": 590, "text": "Nunito: Sphinx of black quartz", "fontFamily": 6, "fontSize": 20},
	map[string]any{"type": "text", "id": "t7", "x": 0, "y": 630, "text": "Lilita One: BIG TITLE", "fontFamily": 7, "fontSize": 36},
	map[string]any{"type": "text", "id": "t8", "x": 0, "y": 690, "text": "Comic Shanns: judge my vow", "fontFamily": 8, "fontSize": 20},
}

// TestFidelity: a scene the agent tools created loads in the real editor,
// and Excalidraw's restore (run in the page on the bytes from disk) leaves
// every element unchanged. It also reports how far the text widths the
// tools computed (scene/textmetrics) are from the browser's own
// measurement with Excalidraw's fonts.
func TestFidelity(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "fidelity", "elements": fidelityElements})
	w.openScene(w.browser, "fidelity")

	var disk struct {
		Elements []map[string]any `json:"elements"`
	}
	if err := json.Unmarshal(w.sceneFile("fidelity"), &disk); err != nil {
		t.Fatal(err)
	}
	restored := evalJS[[]map[string]any](w, w.browser, `fetch("/dsh-excalidraw/api/scenes/fidelity").then(r => r.json()).then(d =>
		window.dshEditor.lib.restoreElements(d.scene.elements, null, {refreshDimensions: false, repairBindings: true}))`)
	if len(restored) != len(disk.Elements) {
		t.Fatalf("restore kept %d of %d elements", len(restored), len(disk.Elements))
	}
	for i, want := range disk.Elements {
		got := restored[i]
		for _, k := range slices.Sorted(maps.Keys(unionKeys(want, got))) {
			if !reflect.DeepEqual(want[k], got[k]) {
				t.Errorf("element %v: restore changed %s: disk %v, restored %v", want["id"], k, want[k], got[k])
			}
		}
	}

	// What the editor holds once its fonts are in (Excalidraw re-measures
	// text when a font loads) must match too, and opening must not save.
	evalJS[bool](w, w.browser, `document.fonts.ready.then(() => true)`)
	live := evalJS[[]map[string]any](w, w.browser, `JSON.parse(JSON.stringify(window.dshEditor.api.getSceneElementsIncludingDeleted()))`)
	if len(live) != len(disk.Elements) {
		t.Fatalf("the editor holds %d elements, disk %d", len(live), len(disk.Elements))
	}
	for i, want := range disk.Elements {
		for _, k := range slices.Sorted(maps.Keys(unionKeys(want, live[i]))) {
			if !reflect.DeepEqual(want[k], live[i][k]) {
				t.Errorf("element %v: the editor holds %s = %v, disk %v", want["id"], k, live[i][k], want[k])
			}
		}
	}
	if s := w.state(w.browser); s.Revision != 1 || s.Status != "saved" {
		t.Errorf("opening the scene changed it: %+v", s)
	}
	widths := evalJS[[]textWidth](w, w.browser, measureTextJS)
	if len(widths) != 11 {
		t.Fatalf("measured %d text elements, want 11 (7 texts, 4 labels)", len(widths))
	}
	worst := 0.0
	for _, m := range widths {
		diff := m.Disk - m.Browser
		rel := math.Abs(diff) / m.Browser
		worst = max(worst, rel)
		t.Logf("text width %-4s font %-14s disk %7.2f browser %7.2f diff %+7.4f px (%.4f%%)", m.ID, m.Font, m.Disk, m.Browser, diff, 100*rel)
		// Helvetica is the one family Excalidraw takes from the system
		// rather than shipping (Debian maps it to Liberation Sans).
		if !m.Loaded && m.Font != "Helvetica" {
			t.Errorf("font %s was not loaded from dsh", m.Font)
		}
	}
	t.Logf("worst text width difference: %.4f%%", 100*worst)
	if worst > 0.05 {
		t.Errorf("a text width is %.1f%% off the browser's; textmetrics is out of date", 100*worst)
	}
}

type textWidth struct {
	ID      string  `json:"id"`
	Font    string  `json:"font"`
	Disk    float64 `json:"disk"`
	Browser float64 `json:"browser"`
	Loaded  bool    `json:"loaded"`
}

// measureTextJS measures every text element's lines with a canvas in the
// page, in the element's font once that font has loaded from dsh, the way
// Excalidraw measures (the widest line).
const measureTextJS = `(async () => {
	const names = Object.fromEntries(Object.entries(window.dshEditor.lib.FONT_FAMILY).map(([k, v]) => [v, k]));
	const resp = await fetch("/dsh-excalidraw/api/scenes/fidelity").then(r => r.json());
	const ctx = document.createElement("canvas").getContext("2d");
	const out = [];
	for (const el of resp.scene.elements) {
		if (el.type !== "text") continue;
		const family = names[el.fontFamily];
		const font = el.fontSize + 'px "' + family + '"';
		const faces = await document.fonts.load(font, el.text);
		ctx.font = font;
		const browser = Math.max(...el.text.split("\n").map(l => ctx.measureText(l).width));
		out.push({id: el.id, font: family, disk: el.width, browser, loaded: faces.length > 0});
	}
	return out;
})()`

func unionKeys(a, b map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
