package editor_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestEditorChromeScreens walks the editor's chrome (status bar, history
// panel, main menu) at a desktop size in Excalidraw's light and dark
// themes and at a phone's size; with DSH_SCREENSHOTS set it keeps their
// pictures there for a person to look at.
func TestEditorChromeScreens(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "roadmap", "elements": []any{
		map[string]any{"type": "rectangle", "id": "a", "x": 0, "y": 0, "width": 200, "height": 90, "label": map[string]any{"text": "Plan"}},
		map[string]any{"type": "ellipse", "id": "b", "x": 320, "y": 20, "width": 120, "height": 80},
	}})
	tab := w.browser
	w.openScene(tab, "roadmap")
	w.tool("batch_create", map[string]any{"name": "roadmap", "options": map[string]any{"note": "add the launch box"}, "elements": []any{
		map[string]any{"type": "rectangle", "id": "c", "x": 0, "y": 200, "width": 160, "height": 80, "label": map[string]any{"text": "Launch"}},
	}})
	w.waitJS(tab, "the agent's box", pageHasJS("c"))
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="history"]`)))
	w.waitJS(tab, "the history", `document.querySelectorAll('.dsh-history .dsh-entry').length === 2`)
	w.keepScreenshot(tab, "desktop-light")
	evalJS[bool](w, tab, `(window.dshEditor.api.updateScene({appState: {theme: "dark"}}), true)`)
	w.keepScreenshot(tab, "desktop-dark")
	if evalJS[bool](w, tab, `document.querySelector('.main-menu-trigger') !== null`) {
		w.run(tab, chromedp.Click(chromedp.CSS(`.main-menu-trigger`)))
		w.keepScreenshot(tab, "desktop-dark-menu")
		w.run(tab, chromedp.Click(chromedp.CSS(`.main-menu-trigger`)))
	}
	evalJS[bool](w, tab, `(window.dshEditor.api.updateScene({appState: {theme: "light"}}), true)`)
	w.run(tab, chromedp.EmulateViewport(390, 844))
	w.keepScreenshot(tab, "phone")
	if evalJS[bool](w, tab, `document.querySelector('.dsh-status-toggle') !== null`) {
		w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status-toggle`)))
		w.keepScreenshot(tab, "phone-details")
	}
}
