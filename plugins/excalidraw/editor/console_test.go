package editor_test

import (
	"strings"
	"testing"
)

// TestConsoleIsClean: loading the editor on a scene with text in every
// font family prints no console error. (Excalidraw's font loader used to
// list a CDN as every font's second source; the page's CSP refused each,
// about 230 errors per load. The build now takes that source out.)
func TestConsoleIsClean(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "fonts", "elements": fidelityElements})
	tab := w.browser
	w.openScene(tab, "fonts")
	evalJS[bool](w, tab, `document.fonts.ready.then(() => new Promise(r => setTimeout(() => r(true), 300)))`)
	w.draw(tab, "a-stroke", 0, 800)
	w.pressSave(tab)
	w.waitJS(tab, "the save", `window.dshEditor.state().status === "saved" && window.dshEditor.state().revision === 2`)
	if errs := w.consoleErrors(tab); len(errs) > 0 {
		t.Fatalf("%d console errors on load, first: %s", len(errs), strings.Join(errs[:min(3, len(errs))], "\n"))
	}
}
