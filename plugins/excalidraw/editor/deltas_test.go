package editor_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sceneReads is how many times the tab has read the whole scene.
func sceneReads(w *world, tab context.Context, name string) int {
	n := 0
	for _, r := range w.requests(tab) {
		if r == "GET /dsh-excalidraw/api/scenes/"+name {
			n++
		}
	}
	return n
}

// TestAgentWritesArriveAsDeltas: with a board open, an agent's commits
// (an add, a move, a delete) reach the page as their changed elements —
// through the board's live room, with the stream moving the base — never
// a read of the whole scene after the first; a person's edit the room
// has not yet taken survives an incoming change (and is then stored on
// top of it), and a deletion arrives as a tombstone that removes the
// element.
func TestAgentWritesArriveAsDeltas(t *testing.T) {
	w := newWorld(t)
	tab := w.browser
	w.tool("excalidraw_scene_create", map[string]any{"name": "deltas", "elements": []any{
		map[string]any{"type": "rectangle", "id": "keep", "x": 0, "y": 0, "width": 90, "height": 50},
		map[string]any{"type": "rectangle", "id": "gone", "x": 200, "y": 0, "width": 90, "height": 50},
	}})
	w.openScene(tab, "deltas")
	w.waitJS(tab, "the stream live", `window.dshEditor.state().link === "live"`)
	if n := sceneReads(w, tab, "deltas"); n != 1 {
		t.Fatalf("%d scene reads on opening, want 1: %v", n, w.requests(tab))
	}

	w.tool("excalidraw_scene_apply", map[string]any{"name": "deltas", "expected_revision": 1, "operations": []any{
		map[string]any{"op": "add", "element": map[string]any{"type": "ellipse", "id": "new", "x": 0, "y": 120, "width": 60, "height": 60}},
		map[string]any{"op": "update", "id": "keep", "patch": map[string]any{"x": 40}},
	}})
	w.waitJS(tab, "the agent's add and move", pageHasJS("new")+` && window.dshEditor.api.getSceneElements().find(e => e.id === "keep").x === 40 && window.dshEditor.state().revision === 2`)
	if s := w.state(tab); s.Status != "saved" || s.Dirty {
		t.Fatalf("after the delta: %+v", s)
	}

	// A person draws while the agent deletes another element. What the
	// page sends the room is held back (until a release), so the change
	// arrives while the rectangle is on the canvas only.
	evalJS[bool](w, tab, `(() => {
		const room = window.dshEditor.room;
		const real = room.sendScene;
		const held = [];
		room.sendScene = (...args) => new Promise(r => held.push(() => r(real.apply(room, args))));
		window.releaseSaves = () => { room.sendScene = real; held.splice(0).forEach(go => go()); return true; };
		return true;
	})()`)
	w.draw(tab, "mine", 300, 200)
	w.tool("excalidraw_scene_apply", map[string]any{"name": "deltas", "expected_revision": 2, "operations": []any{
		map[string]any{"op": "delete", "id": "gone"},
	}})
	w.waitJS(tab, "the agent's delete", `window.dshEditor.state().revision === 3 && !(`+pageHasJS("gone")+`)`)
	if !evalJS[bool](w, tab, pageHasJS("mine")) {
		t.Fatal("the person's unsaved rectangle is gone after the delta")
	}
	if !w.state(tab).Dirty {
		t.Fatal("the canvas is clean: the person's rectangle was saved before the delta arrived")
	}
	tomb := evalJS[bool](w, tab, `window.dshEditor.api.getSceneElementsIncludingDeleted().some(e => e.id === "gone" && e.isDeleted)`)
	if !tomb {
		t.Fatal("the deleted element is not a tombstone on the page")
	}
	// The person's edit is then stored on top of the agent's revision.
	evalJS[bool](w, tab, `window.releaseSaves()`)
	eventually(t, "the person's rectangle saved", func() bool {
		return strings.Contains(string(w.sceneFile("deltas")), `"id": "mine"`) && w.state(tab).Status == "saved"
	})
	w.waitJS(tab, "the base at the person's commit", `window.dshEditor.state().revision === 4`)
	if s := w.state(tab); s.Revision != 4 || s.Dirty {
		t.Fatalf("after the person's save: %+v", s)
	}
	file := string(w.sceneFile("deltas"))
	for _, id := range []string{"keep", "new", "mine"} {
		if !strings.Contains(file, fmt.Sprintf(`"id": %q`, id)) {
			t.Fatalf("%s missing from the file", id)
		}
	}

	if n := sceneReads(w, tab, "deltas"); n != 1 {
		t.Fatalf("the page read the scene %d times, want only the first: %v", n, w.requests(tab))
	}
	if logs := slices.DeleteFunc(w.requests(tab), func(r string) bool { return !strings.HasSuffix(r, "/log") }); len(logs) > 0 {
		t.Fatalf("the page read the journal: %v", logs)
	}
	if errs := w.consoleErrors(tab); len(errs) > 0 {
		t.Fatalf("console errors: %v", errs)
	}
}
