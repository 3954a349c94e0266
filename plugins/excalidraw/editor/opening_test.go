package editor_test

import (
	"strings"
	"testing"
)

// TestOpeningNeverWrites: a scene with its own background colour and the
// grid on is opened and left alone. The page sends no save and the file
// stays at revision 1 with its bytes. (The page used to take its "saved"
// baseline before Excalidraw applied the scene's appState, so every open
// looked like an edit and wrote a ui revision.)
func TestOpeningNeverWrites(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{
		"name":      "coloured",
		"app_state": map[string]any{"viewBackgroundColor": "#fff3bf", "gridModeEnabled": true, "gridSize": 20},
		"elements": []any{
			map[string]any{"type": "rectangle", "id": "box", "x": 0, "y": 0, "width": 120, "height": 60, "label": map[string]any{"text": "hello"}},
			map[string]any{"type": "text", "id": "note", "x": 0, "y": 100, "text": "a note"},
		},
	})
	before := w.sceneFile("coloured")
	tab := w.browser
	w.openScene(tab, "coloured")
	// Fonts in, and longer than the autosave delay.
	evalJS[bool](w, tab, `document.fonts.ready.then(() => new Promise(r => setTimeout(() => r(true), 1500)))`)

	for _, r := range w.requests(tab) {
		if strings.HasPrefix(r, "PUT ") {
			t.Errorf("opening the scene sent %s", r)
		}
	}
	if s := w.state(tab); s.Revision != 1 || s.Status != "saved" || s.Dirty {
		t.Errorf("after opening: %+v", s)
	}
	if after := w.sceneFile("coloured"); string(after) != string(before) {
		t.Errorf("opening the scene changed the file:\n%s", after)
	}
}
