package editor_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// phone is the viewport of a common phone held upright, with touch.
func phone() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(390, 844, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
}

// desktop is the browser's usual window.
func desktop() chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(1280, 800)
}

// TestUXScreenshots walks the page at a desktop size (light and dark) and
// a phone's, through the list, a board, the drawer and the dialogs; with
// DSH_SCREENSHOTS set it keeps their pictures there for a person to look
// at (DSH_UX_PREFIX before each name, e.g. "before-").
func TestUXScreenshots(t *testing.T) {
	prefix := os.Getenv("DSH_UX_PREFIX")
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "roadmap", "elements": []any{
		map[string]any{"type": "rectangle", "id": "box", "x": 0, "y": 0, "width": 200, "height": 100, "backgroundColor": "#a5d8ff", "fillStyle": "solid", "label": map[string]any{"text": "Q1"}},
	}})
	w.tool("excalidraw_scene_create", map[string]any{"name": "team-notes", "elements": []any{
		map[string]any{"type": "ellipse", "id": "e", "x": 0, "y": 0, "width": 120, "height": 120, "backgroundColor": "#ffec99", "fillStyle": "solid"},
	}})
	w.tool("excalidraw_scene_create", map[string]any{"name": "blank"})
	tab := w.browser
	w.run(tab, desktop())
	w.waitJS(tab, "the list", sceneButtonJS("roadmap")+` !== undefined`)
	w.waitBoardsAPI(tab)
	w.keepScreenshot(tab, prefix+"desktop-list-light")
	w.openScene(tab, "roadmap")
	w.waitJS(tab, "the owner's Share", boardRowJS("roadmap")+`?.querySelector('button[data-action="share"]') != null`)
	for _, theme := range []string{"light", "dark"} {
		evalJS[bool](w, tab, fmt.Sprintf(`(window.dshEditor.api.updateScene({appState: {theme: %q}}), true)`, theme))
		w.waitJS(tab, "the "+theme+" theme", fmt.Sprintf(`document.documentElement.classList.contains("dsh-dark") === %v`, theme == "dark"))
		w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-create input`)))
		w.run(tab, chromedp.KeyEvent("My Board!"))
		w.keepScreenshot(tab, prefix+"desktop-board-"+theme)
		evalJS[bool](w, tab, `(`+boardRowJS("roadmap")+`.querySelector('button[data-action="share"]').click(), true)`)
		w.waitJS(tab, "the share dialog", `document.querySelector('dialog[data-testid="share-dialog"] [data-testid="no-members"]') !== null`)
		w.keepScreenshot(tab, prefix+"desktop-share-"+theme)
		w.run(tab, chromedp.KeyEvent(kb.Escape))
		w.waitJS(tab, "the share dialog closed", `document.querySelector('dialog[data-testid="share-dialog"]') === null`)
		w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="connect"]`)))
		w.waitJS(tab, "the connect dialog", `document.querySelector('dialog[data-testid="connect-dialog"]')?.open === true`)
		w.keepScreenshot(tab, prefix+"desktop-connect-"+theme)
		w.run(tab, chromedp.KeyEvent(kb.Escape))
		w.waitJS(tab, "the connect dialog closed", `document.querySelector('dialog[data-testid="connect-dialog"]') === null`)
		evalJS[bool](w, tab, `(() => { const i = document.querySelector(".dsh-create input"); Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set.call(i, ""); i.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`)
	}
	w.run(tab, chromedp.Navigate(w.host.URL()+"/dsh-excalidraw/"))
	w.waitJS(tab, "the list", sceneButtonJS("roadmap")+` !== undefined`)
	w.keepScreenshot(tab, prefix+"desktop-list-dark")
	w.run(tab, chromedp.Navigate(w.host.URL()+"/dsh-excalidraw/#roadmap"))
	w.waitJS(tab, "the editor", `window.dshEditor?.name === "roadmap"`)
	evalJS[bool](w, tab, `(window.dshEditor.api.updateScene({appState: {theme: "light"}}), true)`)
	w.waitJS(tab, "the light theme", `!document.documentElement.classList.contains("dsh-dark")`)

	w.run(tab, phone())
	w.run(tab, chromedp.Navigate(w.host.URL()+"/dsh-excalidraw/"))
	w.waitJS(tab, "the list", sceneButtonJS("roadmap")+` !== undefined`)
	w.keepScreenshot(tab, prefix+"phone-list")
	w.openScene(tab, "roadmap")
	w.keepScreenshot(tab, prefix+"phone-board")
	w.tap(tab, `document.querySelector('[data-action="show-boards"]')`)
	w.waitJS(tab, "the drawer", `!document.querySelector(".dsh-sidebar").hidden`)
	w.keepScreenshot(tab, prefix+"phone-drawer")
	w.tap(tab, boardRowJS("roadmap")+`.querySelector('button[data-action="share"]')`)
	w.waitJS(tab, "the share dialog", `document.querySelector('dialog[data-testid="share-dialog"] [data-testid="no-members"]') !== null`)
	w.keepScreenshot(tab, prefix+"phone-share")
}

// rectJS is an element's box in the viewport, {x, y, w, h}, or null.
func rectJS(sel string) string {
	return fmt.Sprintf(`(() => { const e = %s; if (!e) return null; const r = e.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; })()`, sel)
}

type box struct{ X, Y, W, H float64 }

func (b box) inside(w, h float64) bool {
	return b.W > 0 && b.H > 0 && b.X >= 0 && b.Y >= 0 && b.X+b.W <= w+0.5 && b.Y+b.H <= h+0.5
}

func (b box) overlaps(o box) bool {
	return b.X < o.X+o.W && o.X < b.X+b.W && b.Y < o.Y+o.H && o.Y < b.Y+b.H
}

// tap touches the middle of what sel finds, as a finger does.
func (w *world) tap(tab context.Context, sel string) {
	w.t.Helper()
	b := evalJS[*box](w, tab, rectJS(sel))
	if b == nil {
		w.t.Fatalf("nothing to tap: %s", sel)
	}
	w.run(tab, chromedp.TapXY(b.X+b.W/2, b.Y+b.H/2))
}

// rowActionsFit checks a board's Share, Rename and Delete: shown (no hover
// on a touch screen), big enough to touch, on screen, and not over its
// picture.
func (w *world) rowActionsFit(tab context.Context, name string, vw, vh float64) {
	w.t.Helper()
	thumb := evalJS[*box](w, tab, rectJS(boardRowJS(name)+`.querySelector(".dsh-thumb")`))
	for _, a := range []string{"share", "rename", "delete"} {
		sel := boardRowJS(name) + `.querySelector('button[data-action="` + a + `"]')`
		b := evalJS[*box](w, tab, rectJS(sel))
		if b == nil {
			w.t.Errorf("%s: no %s button", name, a)
			continue
		}
		if !b.inside(vw, vh) || b.W < 30 || b.H < 30 {
			w.t.Errorf("%s: %s is at %+v in a %vx%v viewport", name, a, *b, vw, vh)
		}
		if thumb != nil && b.overlaps(*thumb) {
			w.t.Errorf("%s: %s (%+v) covers the picture (%+v)", name, a, *b, *thumb)
		}
		if shown := evalJS[bool](w, tab, `(() => { const e = `+sel+`; const s = getComputedStyle(e); return s.visibility === "visible" && s.opacity === "1" && getComputedStyle(e.parentElement).opacity === "1"; })()`); !shown {
			w.t.Errorf("%s: %s is not shown without hover", name, a)
		}
	}
}

// TestPhoneLayout: at 390x844 with touch, the board list is the page
// until a board opens; then the board takes the width, Excalidraw's
// toolbar is whole, and a bar above the board opens the list as a
// drawer, where each board's actions are shown and reachable.
func TestPhoneLayout(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "roadmap", "elements": []any{
		map[string]any{"type": "rectangle", "id": "box", "x": 0, "y": 0, "width": 200, "height": 100},
	}})
	w.tool("excalidraw_scene_create", map[string]any{"name": "notes"})
	tab := w.browser
	w.run(tab, phone())
	w.run(tab, chromedp.Navigate(w.host.URL()+"/dsh-excalidraw/"))
	w.waitBoardsAPI(tab)
	w.waitJS(tab, "the owner's actions", boardRowJS("roadmap")+`?.querySelector('button[data-action="share"]') != null`)
	const vw, vh = 390, 844
	if iw := evalJS[float64](w, tab, `innerWidth`); iw != vw {
		t.Fatalf("the page is %v px wide, want %v", iw, vw)
	}
	if side := evalJS[*box](w, tab, rectJS(`document.querySelector(".dsh-sidebar")`)); side == nil || side.W != vw {
		t.Errorf("with no board open the list is %+v, want the page's width", side)
	}
	w.rowActionsFit(tab, "roadmap", vw, vh)

	// A board opens: the list gets out of the way.
	w.tap(tab, boardRowJS("roadmap")+`.querySelector(".dsh-scene-name")`)
	w.waitJS(tab, "roadmap's editor", `window.dshEditor?.name === "roadmap" && document.querySelector(".dsh-main .excalidraw canvas") !== null`)
	w.waitJS(tab, "the list closed", `document.querySelector(".dsh-sidebar").hidden && document.querySelector('[data-action="show-boards"]') !== null`)
	if c := evalJS[*box](w, tab, rectJS(`document.querySelector(".dsh-main .excalidraw")`)); c == nil || c.W != vw || c.X != 0 {
		t.Errorf("the canvas is %+v, want the page's width", c)
	}
	// The toolbar settles once Excalidraw has laid itself out for the
	// narrow canvas (the list closing resizes it): wait for every tool in
	// view, then say what is cut if it never is.
	wholeToolbar := `(() => {
		const shown = [...document.querySelectorAll(".excalidraw .App-toolbar .ToolIcon")].filter(e => e.getBoundingClientRect().width > 0);
		return shown.length > 0 && shown.every(e => { const r = e.getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight; });
	})()`
	w.waitJS(tab, "Excalidraw's whole toolbar in view", wholeToolbar)
	tools := evalJS[map[string][]string](w, tab, `(() => {
		const shown = [...document.querySelectorAll(".excalidraw .App-toolbar .ToolIcon")].filter(e => e.getBoundingClientRect().width > 0);
		const name = e => e.title || e.getAttribute("aria-label") || e.className;
		return {
			shown: shown.map(name),
			cut: shown.filter(e => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight; }).map(name),
		};
	})()`)
	if len(tools["cut"]) > 0 || !slices.ContainsFunc(tools["shown"], func(s string) bool { return strings.HasPrefix(s, "Rectangle") }) {
		t.Errorf("Excalidraw's tools: %v shown, %v cut off", tools["shown"], tools["cut"])
	}
	if b := evalJS[*box](w, tab, rectJS(`document.querySelector('[data-action="show-boards"]')`)); b == nil || !b.inside(vw, vh) || b.W < 30 {
		t.Errorf("the button that opens the list is at %+v", b)
	}
	if rail := evalJS[string](w, tab, `document.querySelector(".dsh-rail").textContent`); rail != "roadmap" {
		t.Errorf("the bar above the board reads %q", rail)
	}
	w.keepScreenshot(tab, "test-phone-board")

	// The drawer: over the board, its actions reachable; Escape closes it
	// and the focus goes back to the button that opened it.
	w.tap(tab, `document.querySelector('[data-action="show-boards"]')`)
	w.waitJS(tab, "the drawer open", `!document.querySelector(".dsh-sidebar").hidden && document.activeElement?.dataset.action === "hide-boards"`)
	if side := evalJS[*box](w, tab, rectJS(`document.querySelector(".dsh-sidebar")`)); side == nil || side.X != 0 || side.W < 300 || side.W >= vw {
		t.Errorf("the drawer is %+v", side)
	}
	w.rowActionsFit(tab, "roadmap", vw, vh)
	w.rowActionsFit(tab, "notes", vw, vh)
	w.keepScreenshot(tab, "test-phone-drawer")
	w.run(tab, chromedp.KeyEvent(kb.Escape))
	w.waitJS(tab, "the drawer closed", `document.querySelector(".dsh-sidebar").hidden && document.activeElement?.dataset.action === "show-boards"`)

	// Rename from the drawer: the dialog fits the screen.
	w.tap(tab, `document.querySelector('[data-action="show-boards"]')`)
	w.waitJS(tab, "the drawer open", `!document.querySelector(".dsh-sidebar").hidden`)
	w.tap(tab, boardRowJS("notes")+`.querySelector('button[data-action="rename"]')`)
	w.waitJS(tab, "the rename dialog", `document.querySelector('dialog[data-testid="rename-dialog"]')?.open === true`)
	if d := evalJS[*box](w, tab, rectJS(`document.querySelector('dialog[data-testid="rename-dialog"]')`)); d == nil || !d.inside(vw, vh) {
		t.Errorf("the rename dialog is at %+v", d)
	}
	w.keepScreenshot(tab, "test-phone-rename")
	w.run(tab, chromedp.KeyEvent(kb.Escape))
	w.waitJS(tab, "the dialog closed", `document.querySelector('dialog[data-testid="rename-dialog"]') === null`)

	// Another board from the drawer: it opens, and the drawer closes.
	w.tap(tab, boardRowJS("notes")+`.querySelector(".dsh-scene-name")`)
	w.waitJS(tab, "notes open, the drawer closed", `window.dshEditor?.name === "notes" && document.querySelector(".dsh-sidebar").hidden`)
	w.noConsoleErrorsBut(tab, "/thumbnail.png")
}

// TestSidebarCollapses: on a desktop the list folds away to a thin rail
// (the board gets the room), stays folded across a reload, and comes back.
func TestSidebarCollapses(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "wide"})
	tab := w.browser
	w.openScene(tab, "wide")
	before := evalJS[float64](w, tab, `document.querySelector(".dsh-main .excalidraw").getBoundingClientRect().width`)
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-sidebar button[data-action="hide-boards"]`)))
	w.waitJS(tab, "the list folded", `document.querySelector(".dsh-sidebar").hidden && document.activeElement?.dataset.action === "show-boards"`)
	w.waitJS(tab, "the board wider", fmt.Sprintf(`document.querySelector(".dsh-main .excalidraw").getBoundingClientRect().width > %v + 150`, before))
	w.keepScreenshot(tab, "test-desktop-collapsed")
	w.run(tab, chromedp.Reload())
	w.waitJS(tab, "wide's editor", `window.dshEditor?.name === "wide"`)
	if !evalJS[bool](w, tab, `document.querySelector(".dsh-sidebar").hidden`) {
		t.Error("after a reload the list is shown again")
	}
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-rail button[data-action="show-boards"]`)))
	w.waitJS(tab, "the list back", `!document.querySelector(".dsh-sidebar").hidden && document.activeElement?.dataset.action === "hide-boards" && `+boardRowJS("wide")+` !== null`)
}

// bgLuminanceJS is the relative luminance (0 black … 1 white) of an
// element's background colour.
func bgLuminanceJS(sel string) string {
	return fmt.Sprintf(`(() => { const [r, g, b] = getComputedStyle(%s).backgroundColor.match(/[\d.]+/g).map(Number).map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4); return 0.2126 * r + 0.7152 * g + 0.0722 * b; })()`, sel)
}

// TestDarkChrome: the list, its rail and the dialogs follow Excalidraw's
// dark theme; with no board open the list is drawn in the last theme used
// here, or the system's before any.
func TestDarkChrome(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "night"})
	tab := w.browser
	const side = `document.querySelector(".dsh-sidebar")`

	// The system prefers dark, and no theme was used here yet.
	w.run(tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	}))
	w.waitJS(tab, "the list dark, as the system", `document.documentElement.classList.contains("dsh-dark") && `+bgLuminanceJS(side)+` < 0.05`)
	w.run(tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}})
		return err
	}))
	w.waitJS(tab, "the list light, as the system", `!document.documentElement.classList.contains("dsh-dark") && `+bgLuminanceJS(side)+` > 0.9`)

	// Excalidraw switched to dark: the chrome follows.
	w.openScene(tab, "night")
	evalJS[bool](w, tab, `(window.dshEditor.api.updateScene({appState: {theme: "dark"}}), true)`)
	w.waitJS(tab, "the sidebar dark", `document.querySelector(".dsh-layout").classList.contains("dsh-dark") && `+bgLuminanceJS(side)+` < 0.05`)
	if l := evalJS[float64](w, tab, `(() => { const c = getComputedStyle(document.querySelector(".dsh-scene-name")).color.match(/[\d.]+/g).map(Number); return c[0] / 255; })()`); l < 0.7 {
		t.Errorf("the list's titles are dark on dark (red channel %.2f)", l)
	}
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-scenes li[data-board="night"] button[data-action="rename"]`)))
	w.waitJS(tab, "the rename dialog", `document.querySelector('dialog[data-testid="rename-dialog"]')?.open === true`)
	if l := evalJS[float64](w, tab, bgLuminanceJS(`document.querySelector('dialog[data-testid="rename-dialog"]')`)); l > 0.05 {
		t.Errorf("the dialog's background is light in the dark theme (luminance %.2f)", l)
	}
	if l := evalJS[float64](w, tab, bgLuminanceJS(`document.querySelector('dialog[data-testid="rename-dialog"] input[name="title"]')`)); l > 0.05 {
		t.Errorf("the dialog's field is light in the dark theme (luminance %.2f)", l)
	}
	w.keepScreenshot(tab, "test-desktop-dark-rename")
	w.run(tab, chromedp.KeyEvent(kb.Escape))

	// The list alone, later: still dark.
	w.run(tab, chromedp.Navigate(w.host.URL()+"/dsh-excalidraw/"))
	w.waitJS(tab, "the list", boardRowJS("night")+` !== null`)
	if l := evalJS[float64](w, tab, bgLuminanceJS(side)); l > 0.05 {
		t.Errorf("the list with no board open is light after the dark theme was used (luminance %.2f)", l)
	}
	w.keepScreenshot(tab, "test-desktop-dark-list")
}
