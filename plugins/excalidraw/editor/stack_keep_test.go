package editor_test

import (
	"encoding/json"
	"testing"
)

// TestPersonGrowsStackItem: an agent stacks three boxes with
// create_stack; a person makes the first one taller in the editor and
// saves. The plugin stores the stack re-laid (the boxes after it moved
// down, the gaps kept), and the person's page shows what was stored, not
// what it sent: the canvas has the moved boxes, and nothing is left
// unsaved.
func TestPersonGrowsStackItem(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "stack"})
	res := w.tool("create_stack", map[string]any{"name": "stack", "gap": 20, "at": map[string]any{"x": 100, "y": 100}, "elements": []any{
		map[string]any{"type": "rectangle", "id": "a", "width": 200, "height": 60},
		map[string]any{"type": "rectangle", "id": "b", "width": 200, "height": 60},
		map[string]any{"type": "rectangle", "id": "c", "width": 200, "height": 60},
	}})
	if res["persisted"] != true {
		t.Fatalf("create_stack: %v", res)
	}
	tab := w.browser
	w.openScene(tab, "stack")
	w.waitJS(tab, "the stack on the page", pageHasJS("c"))

	// The person drags a's bottom edge down by 100 (as the editor's resize
	// does: a new version of the element).
	evalJS[bool](w, tab, `(() => {
		const {api, lib} = window.dshEditor;
		const els = api.getSceneElementsIncludingDeleted().map(e => e.id === "a" ? {...e, height: e.height + 100, version: e.version + 1, versionNonce: e.versionNonce + 1} : e);
		api.updateScene({elements: els, captureUpdate: lib.CaptureUpdateAction.IMMEDIATELY});
		return true;
	})()`)
	w.pressSave(tab)
	w.waitJS(tab, "the re-laid stack on the page", `(() => {
		const els = window.dshEditor.api.getSceneElements();
		const y = (id) => els.find(e => e.id === id).y;
		return y("b") === 280 && y("c") === 360;
	})()`)
	w.waitJS(tab, "nothing unsaved", `window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty`)

	var doc struct {
		Elements []map[string]any `json:"elements"`
	}
	if err := json.Unmarshal(w.sceneFile("stack"), &doc); err != nil {
		t.Fatal(err)
	}
	for _, el := range doc.Elements {
		want := map[string]float64{"a": 100, "b": 280, "c": 360}[el["id"].(string)]
		if el["y"] != want {
			t.Errorf("%v at y=%v on disk, want %v", el["id"], el["y"], want)
		}
	}
}
