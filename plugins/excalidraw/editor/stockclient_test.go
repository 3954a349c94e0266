package editor_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/dshgo/dsh/plugins/excalidraw/room/roomcheck"
)

// A client written from Excalidraw's collaboration protocol (as a stock
// Excalidraw client with dsh as its room server speaks it), dsh's page
// and an agent on one board: the client joins with a room link carrying
// a connect token, as `dsh board room` gives it; what the page draws
// reaches the client, what the client draws shows on the page, an
// agent's write reaches both; a viewer token's client changes nothing.
func TestStockClientWithThePage(t *testing.T) {
	roomcheck.NeedNode(t)
	w := newWorld(t)
	pg := w.newTab()
	w.run(pg, chromedp.Navigate(w.host.URL()+"/dsh-excalidraw/"))
	w.waitJS(pg, "the scene list", `document.querySelector(".dsh-create") !== null`)
	evalJS[int](w, pg, `fetch("/dsh-excalidraw/api/scenes", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: "mixed"})}).then(r => r.status)`)
	w.openScene(pg, "mixed")
	link := func(role string) string {
		return evalJS[string](w, pg, fmt.Sprintf(`Promise.all([
			fetch("/dsh-excalidraw/api/scenes/mixed/room").then(r => r.json()),
			fetch("/dsh-excalidraw/api/mcp/tokens", {method: "POST", headers: {"Content-Type": "application/json"},
				body: JSON.stringify({name: "stock-%s", boards: ["mixed"], role: %q})}).then(r => r.json()),
		]).then(([room, tok]) => "#room=" + room.roomId + "_" + tok.token + "," + room.roomKey)`, role, role))
	}
	stock := roomcheck.Join(t, "stock", w.host.URL(), link("editor"), "")
	stock.Message("SCENE_INIT", nil)
	w.waitJS(pg, "the stock client among the page's collaborators", `window.dshEditor.collaborators().length === 2`)

	// The page draws: the client has it.
	w.draw(pg, "from-page", 100, 100)
	stock.Message("SCENE_UPDATE", roomcheck.HasElement("from-page"))
	// The client draws: the page shows it, and the board keeps it.
	stock.Do(map[string]any{"do": "update", "elements": []any{roomcheck.Rect("from-stock", "a5", 400, 2)}})
	w.waitJS(pg, "the client's rectangle on the page", pageHasJS("from-stock"))
	stock.Await("the client's stroke saved", func(e roomcheck.Event) bool { return e.Ev == "dsh-saved" })
	// An agent's write reaches both.
	rev := int(w.state(pg).Revision)
	w.waitJS(pg, "the page's stored base", fmt.Sprintf(`window.dshEditor.state().revision >= %d`, rev))
	list := w.tool("excalidraw_scene_list", map[string]any{})
	for _, row := range list["scenes"].([]any) {
		if r := row.(map[string]any); r["name"] == "mixed" {
			rev = int(r["revision"].(float64))
		}
	}
	w.tool("excalidraw_scene_apply", map[string]any{"name": "mixed", "expected_revision": rev, "operations": []any{
		map[string]any{"op": "add", "element": map[string]any{"type": "ellipse", "id": "from-agent", "x": 700, "y": 100, "width": 80, "height": 80}},
	}})
	stock.Message("SCENE_UPDATE", roomcheck.HasElement("from-agent"))
	w.waitJS(pg, "the agent's ellipse on the page", pageHasJS("from-agent"))

	// A viewer's client sees the board and changes nothing.
	viewer := roomcheck.Join(t, "viewer", w.host.URL(), link("viewer"), "")
	viewer.Message("SCENE_INIT", roomcheck.HasElement("from-stock"))
	viewer.Do(map[string]any{"do": "update", "elements": []any{roomcheck.Rect("from-viewer", "a6", 600, 2)}})
	if e := viewer.Await("the viewer's refusal", func(e roomcheck.Event) bool { return e.Ev == "dsh-error" }); e.Body["code"] != "permission_denied" {
		t.Fatalf("viewer: %v", e.Body)
	}
	stored := evalJS[[]string](w, pg, `fetch("/dsh-excalidraw/api/scenes/mixed").then(r => r.json()).then(d => d.scene.elements.map(e => e.id))`)
	for _, id := range []string{"from-page", "from-stock", "from-agent"} {
		if !slices.Contains(stored, id) {
			t.Fatalf("the board lacks %s: %v", id, stored)
		}
	}
	if slices.Contains(stored, "from-viewer") {
		t.Fatal("the viewer's rectangle reached the board")
	}
	if n := evalJS[int](w, pg, pageHasJS("from-viewer")+` ? 1 : 0`); n != 0 {
		t.Fatal("the viewer's rectangle reached the page")
	}
}
