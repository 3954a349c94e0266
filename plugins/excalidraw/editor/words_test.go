package editor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// statusTextJS is what the status bar shows a person (not its tooltips).
const statusTextJS = `document.querySelector(".dsh-status").innerText`

// mintToken mints a connect token for one board as the page's person
// (POST …/mcp/tokens, as the connect dialog does) and returns what an MCP
// client needs.
func (w *world) mintToken(tab context.Context, name, board, role string) mcpConfig {
	w.t.Helper()
	out := evalJS[string](w, tab, fmt.Sprintf(`fetch("/dsh-excalidraw/api/mcp/tokens", {method: "POST", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({name: %q, boards: [%q], role: %q})}).then(r => r.text())`, name, board, role))
	var minted struct {
		Token  string `json:"token"`
		MCPURL string `json:"mcpUrl"`
	}
	if err := json.Unmarshal([]byte(out), &minted); err != nil || minted.Token == "" {
		w.t.Fatalf("minting %s: %v: %s", name, err, out)
	}
	if minted.MCPURL == "" {
		minted.MCPURL = w.host.URL() + "/mcp"
	}
	return mcpConfig{URL: minted.MCPURL, Token: minted.Token}
}

// TestStatusBarSpeaksWords: the status bar says what became of the
// person's work in words ("Saved"), with the revision and sha only in its
// tooltip; after an agent's change it says who made it ("changed by
// claude for you just now", the token's name and the person it acts for,
// from the journal), and after the person's own save just "Saved". A
// save that another writer beat says "Someone else changed this board"
// and offers the two ways on. Nothing a person reads says "scene".
func TestStatusBarSpeaksWords(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "plans", "elements": []any{
		map[string]any{"type": "rectangle", "id": "base", "x": 0, "y": 0, "width": 160, "height": 80},
	}})
	tab := w.browser
	w.openScene(tab, "plans")

	w.waitJS(tab, "Saved", `document.querySelector('[data-testid="state"]').textContent === "Saved"`)
	s := w.state(tab)
	shown := evalJS[string](w, tab, statusTextJS)
	for _, bad := range []string{"rev ", "sha", s.SHA256[:8], "scene", "r1"} {
		if strings.Contains(shown, bad) {
			t.Errorf("the status bar shows %q (has %q)", shown, bad)
		}
	}
	details := evalJS[string](w, tab, `document.querySelector('[data-testid="state"]').title`)
	if !strings.Contains(details, "revision 1") || !strings.Contains(details, s.SHA256) {
		t.Errorf("the status's details say %q, want the revision and sha", details)
	}

	// A connect token's change is named by the token and its person.
	claude := w.connectWith(w.mintToken(tab, "claude", "plans", "editor"))
	if res := w.callAs(claude, "batch_create", map[string]any{"name": "plans", "elements": []any{
		map[string]any{"type": "ellipse", "id": "from-claude", "x": 300, "y": 0, "width": 100, "height": 80},
	}}); res.IsError {
		t.Fatalf("claude's batch_create: %s", resultText(res))
	}
	w.waitJS(tab, "who changed it", `document.querySelector('[data-testid="changed"]')?.textContent.includes("changed by claude for you just now") === true`)
	if got := evalJS[string](w, tab, `document.querySelector(".dsh-status-now").textContent`); got != "Saved · changed by claude for you just now" {
		t.Errorf("the status bar says %q", got)
	}
	w.keepScreenshot(tab, "words-changed-by")

	// The person's own change: just "Saved".
	w.draw(tab, "mine", 0, 200)
	w.waitJS(tab, "the person's change saved", `window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty && window.dshEditor.state().revision === 3`)
	w.waitJS(tab, "no one else named", `document.querySelector('[data-testid="changed"]') === null && document.querySelector('[data-testid="state"]').textContent === "Saved"`)

	// Out of the room and not following, a save another writer beat.
	evalJS[bool](w, tab, `(window.dshEditor.setFollow(false), true)`)
	w.waitJS(tab, "follow off", `window.dshEditor.state().room === "off" && window.dshEditor.state().link === "off"`)
	w.tool("batch_create", map[string]any{"name": "plans", "elements": []any{
		map[string]any{"type": "rectangle", "id": "from-agent", "x": 300, "y": 200, "width": 100, "height": 60},
	}})
	w.draw(tab, "stale", 0, 400)
	w.pressSave(tab)
	w.waitJS(tab, "the conflict", `document.querySelector('.dsh-conflict[role="dialog"]') !== null`)
	if got := evalJS[string](w, tab, `document.querySelector('[data-testid="state"]').textContent`); got != "Someone else changed this board" {
		t.Errorf("in a conflict the status bar says %q", got)
	}
	conflict := evalJS[string](w, tab, `document.querySelector('.dsh-conflict[role="dialog"]').innerText`)
	for _, want := range []string{"Someone else changed this board", "Take their version", "Keep mine"} {
		if !strings.Contains(conflict, want) {
			t.Errorf("the conflict says %q, lacks %q", conflict, want)
		}
	}
	for _, bad := range []string{"scene", "revision", "disk"} {
		if strings.Contains(strings.ToLower(conflict), bad) {
			t.Errorf("the conflict says %q (has %q)", conflict, bad)
		}
	}
	w.keepScreenshot(tab, "words-conflict")
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-conflict button[data-action="reload"]`)))
	w.waitJS(tab, "their version taken", pageHasJS("from-agent")+` && !(`+pageHasJS("stale")+`) && document.querySelector('[data-testid="state"]').textContent === "Saved"`)
	if shown := evalJS[string](w, tab, `document.querySelector(".dsh-editor").innerText`); strings.Contains(strings.ToLower(shown), "scene") {
		t.Errorf("the editor shows %q", shown)
	}
	w.noConsoleErrorsBut(tab, "409 (Conflict)")
}

// luminanceJS is the relative luminance (0 black … 1 white) of an
// element's computed background colour.
func luminanceJS(sel string) string {
	return fmt.Sprintf(`(() => {
		const m = getComputedStyle(document.querySelector(%q)).backgroundColor.match(/[\d.]+/g).map(Number);
		const [r, g, b] = m.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
		return 0.2126 * r + 0.7152 * g + 0.0722 * b;
	})()`, sel)
}

// TestStatusBarAndHistoryFollowTheTheme: in Excalidraw's light theme the
// status bar and the history panel are light; switched to dark, both are
// dark.
func TestStatusBarAndHistoryFollowTheTheme(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "themed"})
	tab := w.browser
	w.openScene(tab, "themed")
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="history"]`)))
	w.waitJS(tab, "the history", `document.querySelector('.dsh-history .dsh-entry') !== null`)
	for _, sel := range []string{".dsh-status", ".dsh-history"} {
		if l := evalJS[float64](w, tab, luminanceJS(sel)); l < 0.8 {
			t.Errorf("in the light theme %s has luminance %.2f", sel, l)
		}
	}
	evalJS[bool](w, tab, `(window.dshEditor.api.updateScene({appState: {theme: "dark"}}), true)`)
	w.waitJS(tab, "a dark status bar", luminanceJS(".dsh-status")+` < 0.05`)
	w.waitJS(tab, "a dark history panel", luminanceJS(".dsh-history")+` < 0.05`)
	if l := evalJS[float64](w, tab, `(() => { const m = getComputedStyle(document.querySelector(".dsh-history")).color.match(/[\d.]+/g).map(Number); return (m[0] + m[1] + m[2]) / 765; })()`); l < 0.6 {
		t.Errorf("the dark history panel's text is dark too (%.2f)", l)
	}
	w.keepScreenshot(tab, "theme-dark")
}

// TestStatusBarFoldsOnAPhone: on a phone-wide screen the status bar keeps
// one line (the board and its status) and folds the rest behind a button;
// opening it shows the details, whose History opens the panel.
func TestStatusBarFoldsOnAPhone(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "pocket"})
	tab := w.browser
	w.run(tab, chromedp.EmulateViewport(390, 844))
	w.openScene(tab, "pocket")
	const toggle = `document.querySelector(".dsh-status-toggle")`
	const details = `document.querySelector(".dsh-status-details")`
	w.waitJS(tab, "the folded details", `getComputedStyle(`+toggle+`).display !== "none" && getComputedStyle(`+details+`).display === "none"`)
	fits := `(() => { const f = document.querySelector(".dsh-status"), r = f.getBoundingClientRect(); return r.right <= innerWidth + 0.5 && r.height <= 48 && f.scrollWidth <= f.clientWidth; })()`
	if !evalJS[bool](w, tab, fits) {
		t.Errorf("the status bar does not fit the phone: %s", evalJS[string](w, tab, `JSON.stringify(document.querySelector(".dsh-status").getBoundingClientRect())`))
	}
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status-toggle`)))
	w.waitJS(tab, "the details open", `getComputedStyle(`+details+`).display !== "none" && `+toggle+`.getAttribute("aria-expanded") === "true"`)
	inView := `(() => { const r = document.querySelector(".dsh-status-details").getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && r.top >= 0; })()`
	if !evalJS[bool](w, tab, inView) {
		t.Errorf("the details open off the screen")
	}
	w.keepScreenshot(tab, "phone-details")
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status-details button[data-action="history"]`)))
	w.waitJS(tab, "the history on the phone", `document.querySelector(".dsh-history") !== null`)
	if !evalJS[bool](w, tab, `(() => { const r = document.querySelector(".dsh-history").getBoundingClientRect(); return r.width > 200 && r.right <= innerWidth + 0.5; })()`) {
		t.Errorf("the history panel does not fit the phone")
	}
	w.run(tab, chromedp.EmulateViewport(1280, 800))
	w.waitJS(tab, "the details inline again", `getComputedStyle(`+toggle+`).display === "none" && getComputedStyle(`+details+`).display !== "none"`)
}

// TestMainMenuIsDsh: Excalidraw's main menu shows dsh's items (Boards,
// History, Connect an agent, Share) and its useful own ones, and no links
// to Excalidraw's GitHub, Discord or X; its items do what they say.
func TestMainMenuIsDsh(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "menu"})
	tab := w.browser
	w.openScene(tab, "menu")
	openMenu := func() {
		w.run(tab, chromedp.Click(chromedp.CSS(`.main-menu-trigger`)))
		w.waitJS(tab, "the main menu", `document.querySelector('.dropdown-menu [data-menu="history"]') !== null`)
	}
	openMenu()
	links := evalJS[[]string](w, tab, `[...document.querySelectorAll('.dropdown-menu a[href]')].map(a => a.href)`)
	for _, l := range links {
		for _, bad := range []string{"github.com", "discord", "x.com", "twitter.com"} {
			if strings.Contains(l, bad) {
				t.Errorf("the main menu links to %s", l)
			}
		}
	}
	items := evalJS[[]string](w, tab, `[...document.querySelectorAll('.dropdown-menu .dropdown-menu-item')].map(b => b.textContent.trim())`)
	joined := strings.Join(items, "|")
	for _, want := range []string{"Boards", "History", "Connect an agent…", "Share…"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the main menu lacks %q: %v", want, items)
		}
	}
	w.keepScreenshot(tab, "main-menu")

	w.run(tab, chromedp.Click(chromedp.CSS(`.dropdown-menu [data-menu="history"]`)))
	w.waitJS(tab, "the history from the menu", `document.querySelector(".dsh-history") !== null && document.querySelector(".dropdown-menu") === null`)

	openMenu()
	w.run(tab, chromedp.Click(chromedp.CSS(`.dropdown-menu [data-menu="connect"]`)))
	w.waitJS(tab, "the connect dialog from the menu", `document.querySelector('`+connectDialog+`')?.open === true`)
	w.run(tab, chromedp.KeyEvent(kb.Escape))
	w.waitJS(tab, "the dialog closed", `document.querySelector('`+connectDialog+`') === null`)

	openMenu()
	w.run(tab, chromedp.Click(chromedp.CSS(`.dropdown-menu [data-menu="share"]`)))
	w.waitJS(tab, "the share dialog from the menu", `document.querySelector('dialog[data-testid="share-dialog"]')?.open === true`)
	w.run(tab, chromedp.KeyEvent(kb.Escape))
	w.waitJS(tab, "the share dialog closed", `document.querySelector('dialog[data-testid="share-dialog"]') === null`)

	// Boards brings the folded list back beside the open board.
	w.run(tab, chromedp.Click(chromedp.CSS(`[data-action="hide-boards"]`)))
	w.waitJS(tab, "the list folded", `document.querySelector(".dsh-sidebar").hidden`)
	openMenu()
	w.run(tab, chromedp.Click(chromedp.CSS(`.dropdown-menu [data-menu="boards"]`)))
	w.waitJS(tab, "the board list beside the board", `!document.querySelector(".dsh-sidebar").hidden && document.activeElement?.dataset.action === "hide-boards" && window.dshEditor !== undefined`)
	w.noConsoleErrorsBut(tab)
}

// TestOfflineSaysChangesAreKept: cut off the network, the person's
// drawing stays on the page and the status bar says so in words; back
// online it is saved and the bar says Saved.
func TestOfflineSaysChangesAreKept(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "train"})
	tab := w.browser
	w.openScene(tab, "train")
	w.setOffline(tab, true)
	evalJS[bool](w, tab, `(window.dshEditor.room.drop(), true)`)
	w.waitJS(tab, "the page out of the room", `window.dshEditor.state().room !== "joined"`)
	w.draw(tab, "drawn-offline", 0, 0)
	w.waitJS(tab, "the offline words", `document.querySelector('[data-testid="state"]').textContent === "Offline — your changes are kept here"`)
	w.keepScreenshot(tab, "words-offline")
	w.setOffline(tab, false)
	w.waitJS(tab, "saved once back", `window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty && document.querySelector('[data-testid="state"]').textContent === "Saved"`)
	if !strings.Contains(string(w.sceneFile("train")), `"id": "drawn-offline"`) {
		t.Fatalf("the drawing is not on disk")
	}
}
