package editor_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// rectanglesJS counts the open board's rectangles.
const rectanglesJS = `window.dshEditor.api.getSceneElements().filter(e => e.type === "rectangle").length`

// drawWithKeys does what a person does right after a board opens: press
// r (Excalidraw's rectangle tool) and drag on the canvas. It fails unless
// a rectangle was drawn.
func (w *world) drawWithKeys(tab context.Context, how string) {
	w.t.Helper()
	w.waitJS(tab, "the keyboard on the canvas ("+how+")", `document.activeElement?.closest?.(".dsh-main .excalidraw") != null`)
	before := evalJS[int](w, tab, rectanglesJS)
	w.run(tab, chromedp.KeyEvent("r"))
	w.waitJS(tab, "the rectangle tool ("+how+")", `window.dshEditor.api.getAppState().activeTool.type === "rectangle"`)
	c := evalJS[[2]float64](w, tab, `(() => { const r = document.querySelector(".dsh-main .excalidraw").getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	x, y := c[0]-80, c[1]-40
	acts := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1))}
	for i := 1; i <= 8; i++ {
		acts = append(acts, chromedp.MouseEvent(chromedp.MouseMoved, x+float64(i)*20, y+float64(i)*10, chromedp.ButtonLeft))
	}
	acts = append(acts, chromedp.MouseEvent(chromedp.MouseReleased, x+160, y+80, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	w.run(tab, acts...)
	w.waitJS(tab, "a rectangle drawn ("+how+")", fmt.Sprintf(`%s === %d`, rectanglesJS, before+1))
}

// TestKeysGoToTheCanvas: however a board opens (a link to it, a click in
// the list, switching from another, creating it), the keyboard is on its
// canvas: r then a drag draws a rectangle, with no click on the canvas
// first. (The focus used to stay on the list's button, or on nothing,
// and Excalidraw, which hears keys on its own container, never heard r.)
func TestKeysGoToTheCanvas(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "first"})
	w.tool("excalidraw_scene_create", map[string]any{"name": "second"})
	tab := w.browser

	// A link straight to the board.
	w.openScene(tab, "first")
	w.drawWithKeys(tab, "opened by a link")

	// Another board, clicked in the list (a real click: the button takes
	// the focus).
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-scenes li[data-board="second"] .dsh-scene`)))
	w.waitJS(tab, "second's editor", `window.dshEditor?.name === "second" && document.querySelector(".dsh-main .excalidraw canvas") !== null`)
	w.drawWithKeys(tab, "picked in the list")

	// Back, by the browser's back button.
	w.run(tab, chromedp.NavigateBack())
	w.waitJS(tab, "first's editor again", `window.dshEditor?.name === "first"`)
	w.drawWithKeys(tab, "back")

	// A new board, by its title: the name it gets is shown as it is typed.
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-create input`)))
	w.run(tab, chromedp.KeyEvent("My Board!"))
	w.waitJS(tab, "the name shown", `document.querySelector('[data-testid="slug"]').textContent === "saved as my-board"`)
	w.run(tab, chromedp.KeyEvent(kb.Enter))
	w.waitJS(tab, "the new board open", `window.dshEditor?.name === "my-board"`)
	w.drawWithKeys(tab, "created")
	w.waitJS(tab, "the board's title", `document.title === "My Board! · dsh" && `+boardRowJS("my-board")+`?.querySelector(".dsh-scene-name").textContent === "My Board!"`)
	title := evalJS[string](w, tab, `fetch("/dsh-excalidraw/api/boards").then(r => r.json()).then(d => d.boards.find(b => b.name === "my-board")?.title || "")`)
	if title != "My Board!" {
		t.Errorf("the API has the new board's title as %q", title)
	}
	if v := evalJS[string](w, tab, `document.querySelector(".dsh-create input").value + "|" + document.querySelector('[data-testid="slug"]').textContent`); v != "|" {
		t.Errorf("after creating, the field and its name read %q", v)
	}
	w.noConsoleErrorsBut(tab, "/thumbnail.png") // an empty board's picture: 404 nothing to draw
}

// TestCreateByTitle: the name a title makes, and a refusal that goes away
// once the field changes.
func TestCreateByTitle(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "plans"})
	tab := w.browser
	w.waitJS(tab, "the list", boardRowJS("plans")+` !== null`)
	slug := func(title string) string {
		return evalJS[string](w, tab, fmt.Sprintf(`(() => {
			const i = document.querySelector(".dsh-create input");
			Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(i, %q);
			i.dispatchEvent(new Event("input", {bubbles: true}));
			return new Promise(r => requestAnimationFrame(() => r(document.querySelector('[data-testid="slug"]').textContent)));
		})()`, title))
	}
	for title, want := range map[string]string{
		"My Board!":          "saved as my-board",
		"  Café  Menü 2026 ": "saved as cafe-menu-2026",
		"plans":              "saved as plans-2", // taken
		"Plans":              "saved as plans-2",
		"???":                "saved as board",
		"":                   "",
	} {
		if got := slug(title); got != want {
			t.Errorf("title %q: the form says %q, want %q", title, got, want)
		}
	}

	// A create that fails says why; the message goes once the field
	// changes (it is about what was typed before).
	const alert = `document.querySelector('.dsh-sidebar [role="alert"]')`
	w.setOffline(tab, true)
	slug("Away board")
	evalJS[bool](w, tab, `(document.querySelector(".dsh-create").requestSubmit(), true)`)
	w.waitJS(tab, "the create refused", alert+` !== null`)
	w.setOffline(tab, false)
	slug("Away board, again")
	w.waitJS(tab, "the stale message gone", alert+` === null`)
	evalJS[bool](w, tab, `(document.querySelector(".dsh-create").requestSubmit(), true)`)
	w.waitJS(tab, "the board made once online", `window.dshEditor?.name === "away-board-again"`)
}
