package editor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

// collaborator is one entry of Excalidraw's collaborators as the page
// shows them (window.dshEditor.collaborators()).
type collaborator struct {
	SocketID      string          `json:"socketId"`
	Username      string          `json:"username"`
	IsCurrentUser bool            `json:"isCurrentUser"`
	Pointer       *map[string]any `json:"pointer"`
	Selected      []string        `json:"selected"`
}

// signIn opens a browser context of its own (its own cookies) and logs a
// person in with a password.
func (w *world) signIn(person, password string) context.Context {
	w.t.Helper()
	tab, cancel := chromedp.NewContext(w.browser, chromedp.WithNewBrowserContext())
	w.t.Cleanup(cancel)
	w.watch(tab)
	w.run(tab, chromedp.Navigate(w.host.URL()+"/login?next="+url.QueryEscape("/dsh-excalidraw/")))
	w.waitJS(tab, "the login form", `document.querySelector('input[name="password"]') !== null`)
	w.run(tab, chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), person), chromedp.SendKeys(chromedp.CSS(`input[name="password"]`), password), chromedp.Submit(chromedp.CSS(`input[name="password"]`)))
	w.waitAcrossNavigation(tab, person+"'s editor after login", `location.pathname === "/dsh-excalidraw/" && document.readyState === "complete"`)
	return tab
}

// invite makes an account for a person, with a password.
func (w *world) invite(person, password string) {
	w.t.Helper()
	people := accounts.Open(accounts.File(w.dataDir()), accounts.Options{})
	_, secret, err := people.Add(w.t.Context(), person, "", time.Hour)
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := people.AcceptInvite(w.t.Context(), secret, password); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) collaborators(tab context.Context) []collaborator {
	w.t.Helper()
	return evalJS[[]collaborator](w, tab, `window.dshEditor.collaborators()`)
}

// screenPoint is where a scene point is in the tab's viewport.
func (w *world) screenPoint(tab context.Context, x, y float64) (float64, float64) {
	w.t.Helper()
	p := evalJS[map[string]float64](w, tab, fmt.Sprintf(`(() => {
		const a = window.dshEditor.api.getAppState();
		const z = a.zoom.value;
		return {x: (%f + a.scrollX) * z + a.offsetLeft, y: (%f + a.scrollY) * z + a.offsetTop};
	})()`, x, y))
	return p["x"], p["y"]
}

// TestTwoPeopleDrawTogether: the owner (A) and an invited editor (erin,
// B, in a browser context of her own) open one board and meet in its
// live room. B sees A's pointer named as dsh names A, and what A has
// selected; a rectangle A is still drawing (the mouse button held) is on
// B's canvas, so it came through the room while it was drawn, not
// through a save (A's tab never PUTs the scene while in the room). What
// A drew is on the board (an HTTP read) and the journal names A for it;
// A closing the tab right after a stroke loses nothing; an agent's write
// shows the agent among B's collaborators, its change selected.
func TestTwoPeopleDrawTogether(t *testing.T) {
	w := newWorld(t)
	// A, the owner, in a tab of their own, which they close later.
	a, b := w.twoPeople("together")
	aName := evalJS[string](w, a, `fetch("/dsh-excalidraw/api/me").then(r => r.json()).then(m => m.name)`)
	if aName == "" || aName == "erin" {
		t.Fatalf("A is named %q", aName)
	}

	// A draws a rectangle with the mouse; while the button is still held,
	// B has it.
	evalJS[bool](w, a, `document.fonts.ready.then(() => true)`)
	// Right of the tool's properties island, which takes pointer events.
	x0, y0 := w.screenPoint(a, 400, 150)
	x1, y1 := w.screenPoint(a, 560, 260)
	evalJS[bool](w, a, `(window.dshEditor.api.setActiveTool({type: "rectangle"}), true)`)
	w.run(a,
		chromedp.MouseEvent(chromedp.MouseMoved, x0, y0),
		chromedp.MouseEvent(chromedp.MousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseMoved, (x0+x1)/2, (y0+y1)/2, chromedp.ButtonLeft),
		chromedp.MouseEvent(chromedp.MouseMoved, x1, y1, chromedp.ButtonLeft),
	)
	w.waitJS(a, "A's rectangle in progress", `window.dshEditor.api.getSceneElements().some(e => e.type === "rectangle")`)
	id := evalJS[string](w, a, `window.dshEditor.api.getSceneElements().find(e => e.type === "rectangle").id`)
	w.waitJS(b, "A's rectangle on B's canvas while A still draws it", fmt.Sprintf(`window.dshEditor.api.getSceneElements().some(e => e.id === %q && e.width > 100)`, id))
	w.run(a, chromedp.MouseEvent(chromedp.MouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)))

	// A's pointer, named, with the rectangle (selected once drawn).
	w.run(a, chromedp.MouseEvent(chromedp.MouseMoved, x1+40, y1+40))
	w.waitJS(b, "A's pointer and selection at B", fmt.Sprintf(`window.dshEditor.collaborators().some(c => !c.isCurrentUser && c.username === %q && c.pointer && c.selected.includes(%q))`, aName, id))
	// And B's at A, for the screenshot of two cursors.
	bx, by := w.screenPoint(b, 400, 300)
	w.run(b, chromedp.MouseEvent(chromedp.MouseMoved, bx, by))
	w.waitJS(a, "erin's pointer at A", `window.dshEditor.collaborators().some(c => !c.isCurrentUser && c.username === "erin" && c.pointer)`)
	w.keepScreenshot(a, "room-a-sees-erin")
	w.keepScreenshot(b, "room-erin-sees-a")

	// Saved through the room: acknowledged, on the board, named after A.
	w.waitJS(a, "A's stroke acknowledged", `window.dshEditor.state().status === "saved" && window.dshEditor.state().unacked === 0`)
	if puts := slices.DeleteFunc(w.requests(a), func(r string) bool { return !strings.HasPrefix(r, "PUT /dsh-excalidraw/api/scenes/") }); len(puts) > 0 {
		t.Errorf("A's tab saved by PUT while in the room: %v", puts)
	}
	board := evalJS[[]string](w, b, `fetch("/dsh-excalidraw/api/scenes/together").then(r => r.json()).then(d => d.scene.elements.filter(e => !e.isDeleted).map(e => e.id))`)
	if !slices.Contains(board, id) {
		t.Fatalf("the board lacks A's rectangle %s: %v", id, board)
	}
	who := evalJS[[]string](w, b, fmt.Sprintf(`fetch("/dsh-excalidraw/api/scenes/together/log?limit=50").then(r => r.json()).then(d => d.entries.filter(e => (e.created || []).includes(%q)).map(e => e.actor + ":" + (e.name || "") + ":" + (e.via || "")))`, id))
	if len(who) == 0 || !strings.Contains(who[0], ":"+aName+":") {
		t.Fatalf("the journal's entry creating A's rectangle names %v, want %s", who, aName)
	}

	// B follows A from Excalidraw's list of collaborators (A's avatar):
	// A learns it is followed, and B's viewport goes where A scrolls.
	w.followInList(b, aName)
	w.waitJS(a, "A followed by B", `window.dshEditor.api.getAppState().followedBy.size === 1`)
	evalJS[bool](w, a, `(() => {
		const {api, lib} = window.dshEditor;
		const s = api.getAppState();
		api.updateScene({appState: {scrollX: s.scrollX - 700, scrollY: s.scrollY - 300}, captureUpdate: lib.CaptureUpdateAction.NEVER});
		return true;
	})()`)
	const view = `(() => { const s = window.dshEditor.api.getAppState(); return [-s.scrollX, -s.scrollY, -s.scrollX + s.width / s.zoom.value, -s.scrollY + s.height / s.zoom.value]; })()`
	aView := evalJS[[]float64](w, a, view)
	w.waitJS(b, "B's viewport following A's", fmt.Sprintf(`(() => { const v = %s, want = %s; return v.every((x, i) => Math.abs(x - want[i]) < 40); })()`, view, mustJSON(t, aView)))
	w.followInList(b, aName)
	w.waitJS(a, "A no longer followed", `window.dshEditor.api.getAppState().followedBy.size === 0`)

	// An agent's write: B shows the agent where it worked.
	rev := int(w.state(b).Revision)
	w.waitJS(b, "B's base at the board's head", fmt.Sprintf(`window.dshEditor.state().revision >= %d`, rev))
	list := w.tool("excalidraw_scene_list", map[string]any{})
	for _, row := range list["scenes"].([]any) {
		if r := row.(map[string]any); r["name"] == "together" {
			rev = int(r["revision"].(float64))
		}
	}
	w.tool("excalidraw_scene_apply", map[string]any{"name": "together", "expected_revision": rev, "operations": []any{
		map[string]any{"op": "add", "element": map[string]any{"type": "ellipse", "id": "by-agent", "x": 400, "y": 100, "width": 80, "height": 80}},
	}})
	w.waitJS(b, "the agent's ellipse at B", pageHasJS("by-agent"))
	w.waitJS(b, "the agent among B's collaborators", `window.dshEditor.collaborators().some(c => c.socketId.startsWith("agent-") && c.username !== "" && c.selected.includes("by-agent"))`)
	if os.Getenv("DSH_SCREENSHOTS") != "" {
		// Where the agent worked, for the picture.
		evalJS[bool](w, b, `(window.dshEditor.api.scrollToContent(window.dshEditor.api.getSceneElements().filter(e => e.id === "by-agent"), {animate: false}), true)`)
	}
	w.keepScreenshot(b, "room-erin-sees-agent")

	// A draws once more and closes the tab at once: the stroke is kept.
	if err := chromedp.Listen(a, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			go func() {
				_, _ = chromedp.Call(a, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
			}()
		}
	}); err != nil {
		t.Fatal(err)
	}
	w.draw(a, "drawn-then-closed", 0, 300)
	ctx, cancel := context.WithTimeout(a, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, page.Close, cdp.Empty{}); err != nil {
		t.Fatalf("close A's tab: %v", err)
	}
	eventually(t, "A's last stroke on the board after the tab closed", func() bool {
		return strings.Contains(string(w.sceneFile("together")), `"id": "drawn-then-closed"`)
	})
	w.waitJS(b, "A's last stroke at B", pageHasJS("drawn-then-closed"))
	w.noConsoleErrorsBut(b)
}

// twoPeople opens a board for two people, each in a tab (and browser
// context) of their own, both in the board's live room: A, the owner,
// who creates it and shares it with B, erin, an invited editor.
func (w *world) twoPeople(board string) (a, b context.Context) {
	w.t.Helper()
	const erinPassword = "a long password for erin"
	w.invite("erin", erinPassword)
	a = w.newTab()
	w.run(a, chromedp.Navigate(w.host.URL()+"/dsh-excalidraw/"))
	w.waitJS(a, "the scene list", `document.querySelector(".dsh-create") !== null`)
	created := evalJS[int](w, a, fmt.Sprintf(`fetch("/dsh-excalidraw/api/scenes", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: %q})}).then(r => r.status)`, board))
	if created != 201 && created != 200 {
		w.t.Fatalf("creating the board: HTTP %d", created)
	}
	shared := evalJS[int](w, a, fmt.Sprintf(`fetch("/dsh-excalidraw/api/boards/%s/members/erin", {method: "PUT", headers: {"Content-Type": "application/json"}, body: '{"role":"editor"}'}).then(r => r.status)`, board))
	if shared != 200 {
		w.t.Fatalf("sharing the board with erin: HTTP %d", shared)
	}
	w.openScene(a, board)
	b = w.signIn("erin", erinPassword)
	w.openScene(b, board)
	w.waitJS(b, "A among B's collaborators", `window.dshEditor.collaborators().length === 2`)
	return a, b
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// followInList clicks a person in Excalidraw's list of collaborators (its
// avatar, or their row under "+N" when the avatars do not all fit), which
// follows them, or stops following them.
func (w *world) followInList(tab context.Context, name string) {
	w.t.Helper()
	row := fmt.Sprintf(`[...document.querySelectorAll(".UserList__collaborator-name")].find(n => n.textContent.trim() === %q)`, name)
	if !evalJS[bool](w, tab, row+` !== undefined`) {
		w.waitJS(tab, "the list's +N", `document.querySelector(".UserList__more") !== null`)
		evalJS[bool](w, tab, `(document.querySelector(".UserList__more").click(), true)`)
	}
	w.waitJS(tab, name+" in the list", row+` !== undefined`)
	evalJS[bool](w, tab, `(`+row+`.closest(".UserList__collaborator").click(), true)`)
}

// TestOfflineStrokeReachesTheRoom: A draws while offline (out of the room,
// and the PUT that tries meanwhile fails); once back online the page joins
// the room again, sends what the room lacks, and B has the stroke, which
// is on the board. No edit is lost and none needed a reload.
func TestOfflineStrokeReachesTheRoom(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "offline"})
	a, b := w.newTab(), w.browser
	w.openScene(a, "offline")
	w.openScene(b, "offline")

	w.setOffline(a, true)
	// Offline emulation may leave an open WebSocket be: end it as the
	// network would.
	evalJS[bool](w, a, `(window.dshEditor.room.drop(), true)`)
	w.waitJS(a, "A out of the room", `window.dshEditor.state().room !== "joined"`)
	w.draw(a, "drawn-offline", 40, 40)
	w.waitJS(a, "A's page saying it is not saved", `window.dshEditor.state().dirty && window.dshEditor.state().status !== "saved"`)
	if evalJS[bool](w, b, pageHasJS("drawn-offline")) {
		t.Fatal("B has the stroke A drew offline")
	}

	w.setOffline(a, false)
	w.waitJS(a, "A in the room again", `window.dshEditor.state().room === "joined"`)
	w.waitJS(b, "A's offline stroke at B", pageHasJS("drawn-offline"))
	w.waitJS(a, "A's stroke saved", `window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty`)
	if !strings.Contains(string(w.sceneFile("offline")), `"id": "drawn-offline"`) {
		t.Fatal("the stroke A drew offline is not on the board")
	}
	// Through the room (the page's re-join), or by the page's retried PUT
	// if that came first: either way one commit holds it.
	via := evalJS[[]string](w, b, `fetch("/dsh-excalidraw/api/scenes/offline/log?limit=50").then(r => r.json()).then(d => d.entries.filter(e => (e.created || []).includes("drawn-offline")).map(e => e.via || ""))`)
	if len(via) != 1 {
		t.Fatalf("the journal has %d entries creating the stroke (%v), want 1", len(via), via)
	}
	t.Logf("stored via %s", via[0])
}

// TestBackgroundGoesByMerge: the room carries elements only; a page in it
// stores a new background by a merge (no PUT, no conflict), the page says
// saving until it is stored, and the other page takes it from the stream.
func TestBackgroundGoesByMerge(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "colour"})
	a, b := w.newTab(), w.browser
	w.openScene(a, "colour")
	w.openScene(b, "colour")
	evalJS[bool](w, a, `(() => {
		const {api, lib} = window.dshEditor;
		api.updateScene({appState: {viewBackgroundColor: "#ffc9c9"}, captureUpdate: lib.CaptureUpdateAction.IMMEDIATELY});
		return true;
	})()`)
	w.waitJS(a, "the background stored", `window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty`)
	if !strings.Contains(string(w.sceneFile("colour")), `"viewBackgroundColor": "#ffc9c9"`) {
		t.Fatalf("the background is not on the board:\n%.400s", w.sceneFile("colour"))
	}
	w.waitJS(b, "the background at B", `window.dshEditor.api.getAppState().viewBackgroundColor === "#ffc9c9"`)
	reqs := w.requests(a)
	if puts := slices.DeleteFunc(slices.Clone(reqs), func(r string) bool { return !strings.HasPrefix(r, "PUT /dsh-excalidraw/api/scenes/") }); len(puts) > 0 {
		t.Errorf("A saved by PUT while in the room: %v", puts)
	}
	if !slices.Contains(reqs, "POST /dsh-excalidraw/api/scenes/colour/merge") {
		t.Errorf("A did not merge the background: %v", reqs)
	}
	if s := w.state(b); s.Dirty || s.Status != "saved" {
		t.Errorf("B after taking the background: %+v", s)
	}
}

// TestPageClosedMidStroke: A is drawing freehand (the mouse button still
// down) when A's tab closes. What B saw of the stroke is on the board:
// the room stored it as it was drawn.
func TestPageClosedMidStroke(t *testing.T) {
	w := newWorld(t)
	a, b := w.twoPeople("midstroke")

	evalJS[bool](w, a, `(window.dshEditor.api.setActiveTool({type: "freedraw"}), true)`)
	x0, y0 := w.screenPoint(a, 300, 200)
	w.run(a, chromedp.MouseEvent(chromedp.MouseMoved, x0, y0),
		chromedp.MouseEvent(chromedp.MousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	for k := 1; k <= 12; k++ {
		w.run(a, chromedp.MouseEvent(chromedp.MouseMoved, x0+float64(k*8), y0+float64(k%3*4), chromedp.ButtonLeft))
	}
	w.waitJS(b, "A's stroke at B while A draws", `window.dshEditor.api.getSceneElements().some(e => e.type === "freedraw" && e.points.length >= 8)`)
	id := evalJS[string](w, b, `window.dshEditor.api.getSceneElements().find(e => e.type === "freedraw").id`)
	seen := evalJS[int](w, b, `window.dshEditor.api.getSceneElements().find(e => e.type === "freedraw").points.length`)
	ctx, cancel := context.WithTimeout(a, 30*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, page.Close, cdp.Empty{}); err != nil {
		t.Fatalf("close A's tab: %v", err)
	}
	eventually(t, "the stroke on the board with what B saw of it", func() bool {
		var doc struct {
			Elements []struct {
				ID     string      `json:"id"`
				Points [][]float64 `json:"points"`
			} `json:"elements"`
		}
		if json.Unmarshal(w.sceneFile("midstroke"), &doc) != nil {
			return false
		}
		for _, e := range doc.Elements {
			if e.ID == id && len(e.Points) >= seen {
				return true
			}
		}
		return false
	})
	w.noConsoleErrorsBut(b)
}
