package editor_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// axeSource is axe-core (a devDependency of the page, which npm ci
// installs), read once.
func axeSource(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("web", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		testenv.Missing(t, "axe-core not installed; run make node-deps ("+err.Error()+")")
	}
	return string(b)
}

// axe runs axe-core on the part of the page scope names (an axe context,
// as JS) and returns its serious and critical violations, one line each.
func (w *world) axe(tab context.Context, src, scope string) []string {
	w.t.Helper()
	if !evalJS[bool](w, tab, `typeof window.axe === "object"`) {
		evalJS[bool](w, tab, src+"\n;true")
	}
	res := evalJS[struct {
		Passes     int      `json:"passes"`
		Violations []string `json:"violations"`
	}](w, tab, `axe.run(`+scope+`, {resultTypes: ["violations"]}).then(r => ({passes: r.passes.length, violations: r.violations
		.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => v.impact + " " + v.id + ": " + v.help + " at " + v.nodes.slice(0, 4).map(n => n.target.join(" ") + (n.failureSummary ? " (" + n.failureSummary.replace(/\s+/g, " ").slice(0, 160) + ")" : "")).join("; "))}))`)
	if res.Passes == 0 {
		w.t.Fatalf("axe checked nothing in %s", scope)
	}
	return res.Violations
}

// The page less Excalidraw's own canvas and tools (its accessibility is
// Excalidraw's, not dsh's).
const dshChrome = `{exclude: [[".dsh-main .excalidraw"]]}`

// TestAccessibility: axe-core finds no serious or critical problem in dsh's
// chrome: the board list, an open board's surroundings, the create form
// with a name shown and with a refusal, and the share, rename and delete
// dialogs, in the light theme and the dark.
func TestAccessibility(t *testing.T) {
	src := axeSource(t)
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "roadmap", "elements": []any{
		map[string]any{"type": "rectangle", "id": "box", "x": 0, "y": 0, "width": 200, "height": 100},
	}})
	w.tool("excalidraw_scene_create", map[string]any{"name": "notes"})
	tab := w.browser
	w.waitBoardsAPI(tab)
	w.waitJS(tab, "the owner's actions", boardRowJS("roadmap")+`?.querySelector('button[data-action="share"]') != null`)
	check := func(what, scope string) {
		t.Helper()
		for _, v := range w.axe(tab, src, scope) {
			t.Errorf("%s: %s", what, v)
		}
	}
	check("the board list", dshChrome)

	// The create form, with the name a title makes, then refused.
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-create input`)))
	w.run(tab, chromedp.KeyEvent("My Board!"))
	w.waitJS(tab, "the name shown", `document.querySelector('[data-testid="slug"]').textContent === "saved as my-board"`)
	check("the create form", `{include: [[".dsh-sidebar"]]}`)
	w.setOffline(tab, true)
	w.run(tab, chromedp.KeyEvent(kb.Enter))
	w.waitJS(tab, "the create refused", `document.querySelector('.dsh-sidebar [role="alert"]') !== null`)
	check("the create form, refused", `{include: [[".dsh-sidebar"]]}`)
	w.setOffline(tab, false)

	w.openScene(tab, "roadmap")
	for _, theme := range []string{"light", "dark"} {
		evalJS[bool](w, tab, fmt.Sprintf(`(window.dshEditor.api.updateScene({appState: {theme: %q}}), true)`, theme))
		w.waitJS(tab, "the "+theme+" theme", fmt.Sprintf(`document.documentElement.classList.contains("dsh-dark") === %v`, theme == "dark"))
		check(theme+": an open board", dshChrome)
		for _, d := range []struct{ action, dialog string }{{"share", "share-dialog"}, {"rename", "rename-dialog"}, {"delete", "delete-dialog"}} {
			w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-scenes li[data-board="notes"] button[data-action="`+d.action+`"]`)))
			sel := `dialog[data-testid="` + d.dialog + `"]`
			w.waitJS(tab, "the "+d.dialog, `document.querySelector('`+sel+`')?.open === true`)
			if d.dialog == "share-dialog" {
				w.waitJS(tab, "the people loaded", `document.querySelector('`+sel+` [data-testid="no-members"]') !== null`)
			}
			check(theme+": the "+d.dialog, `{include: [['`+sel+`']]}`)
			w.run(tab, chromedp.KeyEvent(kb.Escape))
			w.waitJS(tab, "the "+d.dialog+" closed", `document.querySelector('`+sel+`') === null`)
		}
	}
}

// TestKeyboardReachesEverything: with Tab alone a person reaches the
// list's controls (fold the list, the create field and button, Trash,
// each board and its Share, Rename and Delete); a dialog keeps Tab inside
// it and Escape closes it, giving the focus back.
func TestKeyboardReachesEverything(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "alpha"})
	w.tool("excalidraw_scene_create", map[string]any{"name": "beta"})
	tab := w.browser
	w.waitBoardsAPI(tab)
	w.waitJS(tab, "the owner's actions", boardRowJS("beta")+`?.querySelector('button[data-action="delete"]') != null`)
	const focused = `(() => { const e = document.activeElement; if (!e || e === document.body) return ""; const row = e.closest("[data-board]"); return (row ? row.dataset.board + ":" : "") + (e.dataset.action || e.dataset.scene || e.getAttribute("aria-label") || e.textContent.trim() || e.tagName); })()`
	seen := map[string]bool{}
	for range 30 {
		w.run(tab, chromedp.KeyEvent(kb.Tab))
		seen[evalJS[string](w, tab, focused)] = true
	}
	for _, want := range []string{"hide-boards", "trash", "New board title", "Create", "alpha:alpha", "alpha:share", "alpha:rename", "alpha:delete", "beta:beta", "beta:share", "beta:rename", "beta:delete"} {
		if !seen[want] {
			t.Errorf("Tab never reached %q; it reached %v", want, keys(seen))
		}
	}

	// A dialog holds the focus, and Escape gives it back.
	w.run(tab, chromedp.Focus(chromedp.CSS(`.dsh-scenes li[data-board="beta"] button[data-action="rename"]`)))
	w.run(tab, chromedp.KeyEvent(kb.Enter))
	const dialog = `document.querySelector('dialog[data-testid="rename-dialog"]')`
	w.waitJS(tab, "the rename dialog", dialog+`?.open === true && `+dialog+`.contains(document.activeElement)`)
	for i := range 12 {
		w.run(tab, chromedp.KeyEvent(kb.Tab))
		if !evalJS[bool](w, tab, dialog+`.contains(document.activeElement) || document.activeElement === document.body`) {
			t.Fatalf("after %d Tabs the focus left the dialog for %s", i+1, evalJS[string](w, tab, `document.activeElement.outerHTML.slice(0, 120)`))
		}
	}
	w.run(tab, chromedp.KeyEvent(kb.Escape))
	w.waitJS(tab, "the dialog closed, the focus back on Rename", dialog+` === null && document.activeElement?.dataset.action === "rename" && document.activeElement.closest("[data-board]")?.dataset.board === "beta"`)
}

func keys(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return strings.Join(out, ", ")
}
