package editor_test

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPersonDragKeepsAgentArrowsBound: an agent draws boxes joined by
// bound arrows with batch_create; a person drags one box with the mouse in
// the editor and the save keeps every arrow bound, its ends re-attached
// by the editor to the moved box.
func TestPersonDragKeepsAgentArrowsBound(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "drag"})
	res := w.tool("batch_create", map[string]any{"name": "drag", "elements": []any{
		map[string]any{"ref": "a", "id": "a", "type": "rectangle", "x": 100, "y": 100, "width": 160, "height": 80, "label": map[string]any{"text": "Client"}},
		map[string]any{"ref": "b", "id": "b", "type": "rectangle", "place": map[string]any{"rightOf": "a", "gap": 200}, "width": 160, "height": 80, "label": map[string]any{"text": "Server"}},
		map[string]any{"type": "arrow", "id": "ab", "startElementId": "a", "endElementId": "b", "label": map[string]any{"text": "calls"}},
	}})
	if res["persisted"] != true {
		t.Fatalf("batch_create: %v", res)
	}
	tab := w.browser
	w.openScene(tab, "drag")
	evalJS[bool](w, tab, `document.fonts.ready.then(() => true)`)

	// The box's centre on screen, from the scene's scroll and zoom.
	pos := evalJS[map[string]float64](w, tab, `(() => {
		const {api} = window.dshEditor;
		const a = api.getAppState();
		const b = api.getSceneElements().find(e => e.id === "b");
		const z = a.zoom.value;
		return {x: (b.x + b.width / 2 + a.scrollX) * z + a.offsetLeft, y: (b.y + 10 + a.scrollY) * z + a.offsetTop};
	})()`)
	x, y := pos["x"], pos["y"]
	w.run(tab,
		chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, x+30, y+60, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, x+60, y+120, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseReleased, x+60, y+120, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	)
	w.waitJS(tab, "the drag to move the box", `window.dshEditor.api.getSceneElements().find(e => e.id === "b").y > 150`)
	w.pressSave(tab)
	w.waitJS(tab, "the save", `window.dshEditor.state().status === "saved" && window.dshEditor.state().revision >= 3`)

	var doc struct {
		Elements []map[string]any `json:"elements"`
	}
	if err := json.Unmarshal(w.sceneFile("drag"), &doc); err != nil {
		t.Fatal(err)
	}
	byID := map[string]map[string]any{}
	for _, el := range doc.Elements {
		byID[el["id"].(string)] = el
	}
	b, ab := byID["b"], byID["ab"]
	if b["y"].(float64) <= 150 {
		t.Fatalf("the drag did not move the box: %v", b["y"])
	}
	for _, k := range []string{"startBinding", "endBinding"} {
		bind, _ := ab[k].(map[string]any)
		if bind == nil || bind["elementId"] == nil {
			t.Fatalf("after the drag the arrow's %s is gone: %v", k, ab[k])
		}
	}
	// The arrow's end is at the moved box, within the binding gap.
	pts := ab["points"].([]any)
	last := pts[len(pts)-1].([]any)
	ex, ey := ab["x"].(float64)+last[0].(float64), ab["y"].(float64)+last[1].(float64)
	bx, by, bw, bh := b["x"].(float64), b["y"].(float64), b["width"].(float64), b["height"].(float64)
	dx := math.Max(math.Max(bx-ex, 0), ex-(bx+bw))
	dy := math.Max(math.Max(by-ey, 0), ey-(by+bh))
	if d := math.Hypot(dx, dy); d > 20 {
		t.Fatalf("the arrow ends %.1f px from the moved box (%s)", d, fmt.Sprint(ab["points"]))
	}
}
