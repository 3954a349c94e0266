package editor_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// phone is the viewport of a common phone held upright, with touch.
func phone() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(390, 844, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
}

// desktop is the browser's usual window.
func desktop() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(1280, 800)
}

// uxShot saves the tab's viewport as DIR/name.png when DSH_UX_SHOTS names
// a directory (the pictures a person looks at to judge the layout).
func (w *world) uxShot(tab context.Context, name string) {
	w.t.Helper()
	dir := os.Getenv("DSH_UX_SHOTS")
	if dir == "" {
		return
	}
	// Let fonts and a transition settle.
	evalJS[bool](w, tab, `document.fonts.ready.then(() => new Promise(r => setTimeout(() => r(true), 400)))`)
	ctx, cancel := context.WithTimeout(tab, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		w.t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.MkdirAll(dir, 0o755); err == nil {
		_ = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
}

// TestUXScreenshots takes the page's pictures at a desktop size (light and
// dark) and a phone's, for a person to look at; it only runs when
// DSH_UX_SHOTS names where to put them.
func TestUXScreenshots(t *testing.T) {
	prefix := os.Getenv("DSH_UX_PREFIX")
	if os.Getenv("DSH_UX_SHOTS") == "" {
		t.Skip("DSH_UX_SHOTS not set")
	}
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "roadmap", "elements": []any{
		map[string]any{"type": "rectangle", "id": "box", "x": 0, "y": 0, "width": 200, "height": 100, "backgroundColor": "#a5d8ff", "fillStyle": "solid", "label": map[string]any{"text": "Q1"}},
	}})
	w.tool("excalidraw_scene_create", map[string]any{"name": "team-notes", "elements": []any{
		map[string]any{"type": "ellipse", "id": "e", "x": 0, "y": 0, "width": 120, "height": 120, "backgroundColor": "#ffec99", "fillStyle": "solid"},
	}})
	w.tool("excalidraw_scene_create", map[string]any{"name": "blank"})
	tab := w.browser
	w.run(tab, desktop())
	w.waitJS(tab, "the list", sceneButtonJS("roadmap")+` !== undefined`)
	w.uxShot(tab, prefix+"desktop-list-light")
	w.openScene(tab, "roadmap")
	w.uxShot(tab, prefix+"desktop-board-light")
	evalJS[bool](w, tab, `(window.dshEditor.api.updateScene({appState: {theme: "dark"}}), true)`)
	w.waitJS(tab, "the dark theme", `document.querySelector(".dsh-layout.dsh-dark") !== null`)
	w.uxShot(tab, prefix+"desktop-board-dark")
	w.waitJS(tab, "the owner's Share", boardRowJS("roadmap")+`?.querySelector('button[data-action="share"]') != null`)
	evalJS[bool](w, tab, `(`+boardRowJS("roadmap")+`.querySelector('button[data-action="share"]').click(), true)`)
	w.waitJS(tab, "the share dialog", `document.querySelector('dialog[data-testid="share-dialog"]')?.open === true`)
	w.uxShot(tab, prefix+"desktop-share-dark")
	evalJS[bool](w, tab, `(document.querySelector('dialog[data-testid="share-dialog"] button[data-action="done"]').click(), true)`)
	evalJS[bool](w, tab, `(window.dshEditor.api.updateScene({appState: {theme: "light"}}), true)`)
	w.waitJS(tab, "the light theme", `document.querySelector(".dsh-layout.dsh-dark") === null`)

	w.run(tab, phone())
	w.run(tab, chromedp.Navigate(w.host.URL()+"/dsh-excalidraw/"))
	w.waitJS(tab, "the list", sceneButtonJS("roadmap")+` !== undefined`)
	w.uxShot(tab, prefix+"phone-list")
	w.openScene(tab, "roadmap")
	w.uxShot(tab, prefix+"phone-board")
}
