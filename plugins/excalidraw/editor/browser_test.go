package editor_test

import (
	"crypto/sha256"
	"encoding/hex"
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
	sum := sha256.Sum256(disk)
	sha := hex.EncodeToString(sum[:])
	if s := w.state(tab); s.SHA256 != sha {
		t.Fatalf("page shows sha %s, disk has %s", s.SHA256, sha)
	}
	shown := evalJS[string](w, tab, `document.querySelector('[data-testid="sha"]').textContent`)
	if !strings.Contains(shown, sha[:12]) {
		t.Fatalf("status bar shows %q, want the first 12 hex of %s", shown, sha)
	}

	ed := w.health()["editor"].(map[string]any)
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

	// Now with an unsaved stroke on the canvas when the agent's change
	// lands (autosave waits 800 ms): the merge keeps the stroke, and the
	// autosave that follows commits both.
	w.draw(tab, "unsaved-stroke", 200, 200)
	w.tool("excalidraw_scene_apply", map[string]any{"name": "board", "expected_revision": 3, "operations": []any{
		map[string]any{"op": "add", "element": map[string]any{"type": "diamond", "id": "agent-again", "x": 500, "y": 0, "width": 80, "height": 80}},
	}})
	w.waitJS(tab, "both on the canvas", pageHasJS("agent-again")+" && "+pageHasJS("unsaved-stroke"))
	w.waitJS(tab, "the autosave after the merge", `window.dshEditor.state().revision === 5 && window.dshEditor.state().status === "saved"`)
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
	w.waitJS(b, "the conflict dialog", `document.querySelector('[role="dialog"][aria-label="Revision conflict"]') !== null`)
	buttons := evalJS[[]string](w, b, `[...document.querySelectorAll('[role="dialog"] button')].map(b => b.textContent.trim())`)
	if strings.Join(buttons, "|") != "Reload from disk|Overwrite anyway" {
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

// TestUnmountReported: leaving a scene reports `unmounted`, and /health
// says no editor is mounted.
func TestUnmountReported(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "one"})
	w.openScene(w.browser, "one")
	w.waitJS(w.browser, "mounted evidence", `true`)
	eventually(t, "mounted in /health", func() bool { return w.health()["editor"].(map[string]any)["mounted"] == true })
	w.run(w.browser, chromedp.Navigate("about:blank"))
	eventually(t, "unmounted in /health", func() bool {
		ed := w.health()["editor"].(map[string]any)
		evs := ed["events"].([]any)
		return ed["mounted"] == false && evs[len(evs)-1].(map[string]any)["event"] == "unmounted"
	})
}
