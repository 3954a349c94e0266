package editor_test

import (
	"context"
	"testing"
	"time"
)

// TestStreamComesBackAfterUnloadAndLoad: the operator unloads the
// Excalidraw plugin and loads it again while an editor is open. The page
// says the plugin is unavailable (not a silent, ticked "follow live
// changes"), reconnects by itself once the plugin is back, catches up, and
// shows an agent's next change without a reload. (The page's EventSource
// used to stop for good on the 404.)
func TestStreamComesBackAfterUnloadAndLoad(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "steady"})
	tab := w.browser
	w.openScene(tab, "steady")
	w.waitJS(tab, "the stream live", `window.dshEditor.state().link === "live"`)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := w.host.UnloadPlugin(ctx, "excalidraw"); err != nil {
		t.Fatal(err)
	}
	w.waitJS(tab, "the page to say the plugin is away", `window.dshEditor.state().link === "unavailable"`)
	if shown := evalJS[string](w, tab, `document.querySelector('[data-testid="link"]').textContent`); shown != "dsh is restarting; reconnecting…" {
		t.Fatalf("status bar shows %q while the plugin is unloaded", shown)
	}
	if err := w.host.LoadPlugin(ctx, "excalidraw"); err != nil {
		t.Fatal(err)
	}
	w.waitJS(tab, "the stream live again", `window.dshEditor.state().link === "live"`)

	w.tool("excalidraw_scene_apply", map[string]any{"name": "steady", "expected_revision": 1, "operations": []any{
		map[string]any{"op": "add", "element": map[string]any{"type": "rectangle", "id": "after-reload", "x": 0, "y": 0, "width": 90, "height": 50}},
	}})
	w.waitJS(tab, "the agent's change after the plugin came back", pageHasJS("after-reload"))
	if s := w.state(tab); s.Revision != 2 || s.Status != "saved" {
		t.Fatalf("after catching up: %+v", s)
	}
}

// TestSceneListIsLive: a scene an agent creates appears in the open
// page's list without a refresh, its revision badge follows commits, and
// the row says who changed it and when.
func TestSceneListIsLive(t *testing.T) {
	w := newWorld(t)
	tab := w.browser
	w.tool("excalidraw_scene_create", map[string]any{"name": "made-by-agent", "elements": []any{
		map[string]any{"type": "rectangle", "id": "r", "x": 0, "y": 0, "width": 50, "height": 50},
	}})
	w.waitJS(tab, "the agent's scene in the list", sceneButtonJS("made-by-agent")+` !== undefined`)
	// The row may first show the file as the listing caught it, between
	// its rename into place and its sidecar's (r0: "no sidecar yet"); the
	// commit's event then brings r1 and who made it. Under load the
	// listing often lands there, so the row is awaited, not read at once.
	row := sceneButtonJS("made-by-agent") + ".textContent"
	w.waitJS(tab, "the row to say r1, agent, just now",
		`(() => { const r = `+row+`; return r.includes("r1") && r.includes("agent") && r.includes("just now"); })()`)
	w.tool("excalidraw_scene_apply", map[string]any{"name": "made-by-agent", "expected_revision": 1, "operations": []any{
		map[string]any{"op": "update", "id": "r", "patch": map[string]any{"x": 100}},
	}})
	w.waitJS(tab, "the badge to follow the commit", sceneButtonJS("made-by-agent")+`.querySelector('[data-testid="rev"]').textContent === "r2"`)
}
