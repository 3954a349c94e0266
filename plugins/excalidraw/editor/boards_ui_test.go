package editor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// boardRowJS finds a board's row in the sidebar list.
func boardRowJS(name string) string {
	return fmt.Sprintf(`document.querySelector('.dsh-scenes li[data-board=%q]')`, name)
}

// TestBoardsUIRenameDeleteRestore: the owner renames a board (the list
// shows its new title and description, and so does the API), moves it to
// the trash while it is open (the editor closes, the list drops it, Trash
// lists it) and restores it (back in the list, with its drawing). The
// sidebar says who is signed in.
func TestBoardsUIRenameDeleteRestore(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "plans", "elements": []any{
		map[string]any{"type": "rectangle", "id": "box", "x": 0, "y": 0, "width": 160, "height": 80, "backgroundColor": "#ffec99", "fillStyle": "solid"},
	}})
	w.tool("excalidraw_scene_create", map[string]any{"name": "other"})
	tab := w.browser
	w.openScene(tab, "plans")
	w.waitBoardsAPI(tab)
	w.waitJS(tab, "the owner's actions on the row", boardRowJS("plans")+`?.querySelector('button[data-action="rename"]') != null`)
	w.waitJS(tab, "who is signed in", `document.querySelector('[data-testid="signed-in"]')?.textContent.startsWith("Signed in as ")`)
	me := evalJS[string](w, tab, `fetch("/dsh-excalidraw/api/me").then(r => r.json()).then(m => m.name)`)
	if shown := evalJS[string](w, tab, `document.querySelector('[data-testid="signed-in"] strong').textContent`); shown != me || me == "" {
		t.Errorf("the sidebar says signed in as %q, /api/me says %q", shown, me)
	}

	// Rename, with a description.
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-scenes li[data-board="plans"] button[data-action="rename"]`)))
	const dialog = `dialog[data-testid="rename-dialog"]`
	w.waitJS(tab, "the rename dialog", `document.querySelector('`+dialog+`')?.open && document.activeElement === document.querySelector('`+dialog+` input[name="title"]')`)
	if v := evalJS[string](w, tab, `document.querySelector('`+dialog+` input[name="title"]').value`); v != "plans" {
		t.Errorf("the title field starts as %q, want the name", v)
	}
	if n := evalJS[int](w, tab, `document.querySelector('`+dialog+` input[name="title"]').maxLength`); n != 120 {
		t.Errorf("the title holds %d characters, want 120", n)
	}
	if n := evalJS[int](w, tab, `document.querySelector('`+dialog+` textarea[name="description"]').maxLength`); n != 300 {
		t.Errorf("the description holds %d characters, want 300", n)
	}
	evalJS[bool](w, tab, `(document.querySelector('`+dialog+` input[name="title"]').select(), true)`)
	w.run(tab, chromedp.KeyEvent("Launch plan"))
	w.run(tab, chromedp.Click(chromedp.CSS(dialog+` textarea[name="description"]`)))
	w.run(tab, chromedp.KeyEvent("What ships in March, and who draws it"))
	w.keepScreenshot(tab, "boards-rename-dialog")
	w.run(tab, chromedp.Click(chromedp.CSS(dialog+` button[data-action="save-title"]`)))
	w.waitJS(tab, "the new title in the list", `document.querySelector('`+dialog+`') === null && `+boardRowJS("plans")+`?.querySelector('.dsh-scene-name').textContent === "Launch plan"`)
	if d := evalJS[string](w, tab, boardRowJS("plans")+`.querySelector('[data-testid="description"]')?.textContent || ""`); d != "What ships in March, and who draws it" {
		t.Errorf("the row's description reads %q", d)
	}
	if s := evalJS[string](w, tab, `document.querySelector('.dsh-status .dsh-name').textContent`); s != "Launch plan" {
		t.Errorf("the open board's status bar names it %q", s)
	}
	api := evalJS[map[string]string](w, tab, `fetch("/dsh-excalidraw/api/boards").then(r => r.json()).then(d => { const b = d.boards.find(b => b.name === "plans"); return {title: b.title, description: b.description || ""}; })`)
	if api["title"] != "Launch plan" || api["description"] != "What ships in March, and who draws it" {
		t.Errorf("the API has the board as %v", api)
	}
	w.keepScreenshot(tab, "boards-renamed")

	// Delete, while it is open: asked first, saying it can be restored.
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-scenes li[data-board="plans"] button[data-action="delete"]`)))
	const confirm = `dialog[data-testid="delete-dialog"]`
	w.waitJS(tab, "the delete confirmation", `document.querySelector('`+confirm+`')?.open === true`)
	text := evalJS[string](w, tab, `document.querySelector('`+confirm+`').textContent`)
	if !strings.Contains(text, "Launch plan") || !strings.Contains(text, "restore it from Trash") {
		t.Errorf("the delete confirmation reads %q", text)
	}
	w.keepScreenshot(tab, "boards-delete-confirm")
	w.run(tab, chromedp.Click(chromedp.CSS(confirm+` button[data-action="confirm-delete"]`)))
	w.waitJS(tab, "the board gone from the list and the editor", `document.querySelector('`+confirm+`') === null && `+boardRowJS("plans")+` === null && `+boardRowJS("other")+` !== null && !window.dshEditor`)
	if empty := evalJS[string](w, tab, `document.querySelector('.dsh-main').textContent`); !strings.Contains(empty, "Pick a board") {
		t.Errorf("after deleting the open board the page shows %q", empty)
	}

	// In the trash, and back.
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-sidebar button[data-action="trash"]`)))
	const trashed = `document.querySelector('[data-testid="trash"] li[data-trashed="plans"]')`
	w.waitJS(tab, "the board in the trash", trashed+` !== null`)
	if title := evalJS[string](w, tab, trashed+`.querySelector('.dsh-scene-name').textContent`); title != "Launch plan" {
		t.Errorf("the trash lists it as %q", title)
	}
	w.keepScreenshot(tab, "boards-trash")
	w.run(tab, chromedp.Click(chromedp.CSS(`[data-testid="trash"] li[data-trashed="plans"] button[data-action="restore"]`)))
	w.waitJS(tab, "the board restored", trashed+` === null && document.querySelector('[data-testid="trash"] [role="status"]').textContent.includes("“Launch plan” is back")`)
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-sidebar button[data-action="boards"]`)))
	w.waitJS(tab, "the board back in the list", boardRowJS("plans")+`?.querySelector('.dsh-scene-name').textContent === "Launch plan"`)
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-scenes li[data-board="plans"] .dsh-scene`)))
	w.waitJS(tab, "the restored board open with its drawing", `window.dshEditor?.name === "plans" && `+pageHasJS("box"))
	w.keepScreenshot(tab, "boards-restored")
	w.noConsoleErrorsBut(tab)
}

// waitBoardsAPI waits (a while) for the host to serve GET /boards and
// /me: they are built alongside the page.
func (w *world) waitBoardsAPI(tab context.Context) {
	w.t.Helper()
	ok := evalJS[string](w, tab, `Promise.all(["/dsh-excalidraw/api/boards", "/dsh-excalidraw/api/me"].map(u => fetch(u).then(r => u + " " + r.status))).then(l => l.join(", "))`)
	if strings.Count(ok, " 200") != 2 {
		w.t.Fatalf("the host does not serve the boards API yet: %s", ok)
	}
}
