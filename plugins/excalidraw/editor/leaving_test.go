package editor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestSwitchingScenesSavesFirst: a person draws and at once opens another
// scene in the sidebar, well inside the autosave delay. The stroke is on
// disk before the other scene opens, and is there when they come back.
// (The page used to drop the pending autosave when the editor unmounted.)
func TestSwitchingScenesSavesFirst(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "first"})
	w.tool("excalidraw_scene_create", map[string]any{"name": "second"})
	tab := w.browser
	w.openScene(tab, "first")
	w.waitJS(tab, "the scene list", sceneButtonJS("second")+` !== undefined`)

	w.draw(tab, "drawn-then-left", 40, 40)
	w.clickScene(tab, "second")
	w.waitJS(tab, "the second scene's editor", `window.dshEditor && window.dshEditor.name === "second" && document.querySelector(".excalidraw canvas") !== null`)
	if disk := string(w.sceneFile("first")); !strings.Contains(disk, `"id": "drawn-then-left"`) {
		t.Fatalf("switching scenes dropped the pending stroke; first on disk:\n%s", disk)
	}

	w.clickScene(tab, "first")
	w.waitJS(tab, "the stroke back in the first scene", `window.dshEditor && window.dshEditor.name === "first" && `+pageHasJS("drawn-then-left"))
	if s := w.state(tab); s.Revision != 2 || s.Status != "saved" {
		t.Fatalf("back on first: %+v", s)
	}
}

// TestClosingTheTabSavesFirst: a person draws and closes the tab at once.
// The page sends the pending save as the tab goes away (a keepalive
// request), so the stroke is on disk. If Chromium asks whether to leave
// (it does when the page has had a user gesture), the test says yes.
func TestClosingTheTabSavesFirst(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "closing"})
	tab := w.newTab()
	w.openScene(tab, "closing")
	if err := chromedp.Listen(tab, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			go func() {
				_, _ = chromedp.Call(tab, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
			}()
		}
	}); err != nil {
		t.Fatal(err)
	}

	w.draw(tab, "drawn-then-closed", 10, 10)
	ctx, cancel := context.WithTimeout(tab, 30e9)
	defer cancel()
	if _, err := chromedp.Call(ctx, page.Close, cdp.Empty{}); err != nil {
		t.Fatalf("close the tab: %v", err)
	}
	eventually(t, "the stroke on disk after the tab closed", func() bool {
		return strings.Contains(string(w.sceneFile("closing")), `"id": "drawn-then-closed"`)
	})
}

// TestLeavingAsksWhileUnsaved: while a change is not on disk the page
// registers its intent to ask before unloading (beforeunload cancelled);
// once saved, leaving is free.
func TestLeavingAsksWhileUnsaved(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "asking"})
	tab := w.browser
	w.openScene(tab, "asking")
	const probe = `(() => { const e = new Event("beforeunload", {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented; })()`
	if evalJS[bool](w, tab, probe) {
		t.Fatal("a clean page asks before unloading")
	}
	// Offline, so the save the probe starts cannot finish.
	w.setOffline(tab, true)
	w.draw(tab, "unsaved", 0, 0)
	if !evalJS[bool](w, tab, probe) {
		t.Fatal("a page with an unsaved change does not ask before unloading")
	}
	w.setOffline(tab, false)
	w.waitJS(tab, "the save once back online", `window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty`)
	if evalJS[bool](w, tab, probe) {
		t.Fatal("a saved page still asks before unloading")
	}
}
