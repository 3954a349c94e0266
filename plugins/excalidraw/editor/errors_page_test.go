package editor_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// bannerJS is the text of the page's alert under the canvas, "" if none.
const bannerJS = `(document.querySelector('[data-testid="banner"]')?.textContent || "")`

// noBareError fails if the status bar or banner shows a bare "error" or
// raw JSON, which tell a person nothing.
func (w *world) noBareError(tab context.Context) {
	w.t.Helper()
	shown := evalJS[string](w, tab, `document.querySelector(".dsh-status").textContent + " | " + `+bannerJS)
	if strings.Contains(shown, "{") || strings.Contains(strings.ToLower(shown), " error ") || strings.HasSuffix(strings.TrimSpace(shown), "error") {
		w.t.Fatalf("the page shows %q", shown)
	}
}

// TestSessionEndedIsExplained: the browser's session ends while a person
// draws. The save is refused with 401, and the page says the session
// ended, shows the command that prints a new login link, and keeps the
// drawing; once the person logs in again (in another tab), the page saves
// by itself.
func TestSessionEndedIsExplained(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "session"})
	tab := w.browser
	w.openScene(tab, "session")
	w.run(tab, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, network.DeleteCookies, network.DeleteCookiesParams{Name: "dsh_session", URL: w.host.URL()})
		return err
	}))
	// The board's room admitted its socket at the handshake: the ended
	// session shows when it connects again, which a dropped connection
	// makes it do. Until the person is back, the page is out of the room
	// and saves (or fails to) by PUT.
	evalJS[bool](w, tab, `(window.dshEditor.room.drop(), true)`)
	w.waitJS(tab, "the page out of the room", `window.dshEditor.state().room !== "joined"`)

	w.draw(tab, "kept-while-logged-out", 0, 0)
	w.waitJS(tab, "the page to say the session ended", bannerJS+`.includes("session ended")`)
	banner := evalJS[string](w, tab, bannerJS)
	if !strings.Contains(banner, "dsh login") {
		t.Fatalf("the banner does not say how to log in again: %q", banner)
	}
	if s := w.state(tab); s.Status != "failed" || s.Failure != "unauthorized" || !s.Dirty {
		t.Fatalf("state while logged out: %+v", s)
	}
	if got := evalJS[string](w, tab, `document.querySelector('[data-testid="state"]').textContent`); got != "Not saved — log in again" {
		t.Fatalf("status bar says %q", got)
	}
	w.noBareError(tab)

	// Log in again in another tab, as the banner says.
	link, err := w.host.LoginLink(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	other := w.newTab()
	w.run(other, chromedp.Navigate(link+"&next="+url.QueryEscape("/dsh-excalidraw/")))
	w.waitJS(tab, "the retried save", `window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty`)
	if !strings.Contains(string(w.sceneFile("session")), `"id": "kept-while-logged-out"`) {
		t.Fatal("the drawing made while logged out is not on disk")
	}
	w.waitJS(tab, "the banner gone", bannerJS+` === ""`)
}

// TestUnloadedPluginIsExplained: a person draws while the plugin is
// unloaded. The page says the plugin is unavailable and that it retries;
// when the plugin is loaded again the drawing is saved without the person
// doing anything.
func TestUnloadedPluginIsExplained(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "away"})
	tab := w.browser
	w.openScene(tab, "away")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := w.host.UnloadPlugin(ctx, "excalidraw"); err != nil {
		t.Fatal(err)
	}
	w.draw(tab, "drawn-while-away", 0, 0)
	w.waitJS(tab, "the page to say the plugin is away", bannerJS+`.includes("dsh is restarting")`)
	if s := w.state(tab); s.Failure != "unavailable" {
		t.Fatalf("state while unloaded: %+v", s)
	}
	w.noBareError(tab)
	if err := w.host.LoadPlugin(ctx, "excalidraw"); err != nil {
		t.Fatal(err)
	}
	w.waitJS(tab, "the save once the plugin is back", `window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty`)
	if !strings.Contains(string(w.sceneFile("away")), `"id": "drawn-while-away"`) {
		t.Fatal("the drawing made while the plugin was away is not on disk")
	}
}

// TestLimitIsNamed: a save over maxElements is refused with the limit's
// own code, and the page names the limit and what to do; a deletion that
// brings the scene within it saves.
func TestLimitIsNamed(t *testing.T) {
	w := newWorld(t, withPluginConfig("maxElements: 2"))
	w.tool("excalidraw_scene_create", map[string]any{"name": "small", "elements": []any{
		map[string]any{"type": "rectangle", "id": "one", "x": 0, "y": 0, "width": 40, "height": 40},
		map[string]any{"type": "rectangle", "id": "two", "x": 80, "y": 0, "width": 40, "height": 40},
	}})
	tab := w.browser
	w.openScene(tab, "small")
	w.draw(tab, "three", 160, 0)
	w.waitJS(tab, "the limit named", bannerJS+`.includes("maxElements")`)
	banner := evalJS[string](w, tab, bannerJS)
	for _, want := range []string{"3 elements", "the limit is 2", "Delete some elements"} {
		if !strings.Contains(banner, want) {
			t.Errorf("banner %q lacks %q", banner, want)
		}
	}
	if s := w.state(tab); s.Status != "failed" || s.Failure != "limit" || s.Revision != 1 {
		t.Fatalf("state over the limit: %+v", s)
	}
	w.noBareError(tab)

	evalJS[bool](w, tab, `(() => {
		const {api, lib} = window.dshEditor;
		api.updateScene({elements: api.getSceneElementsIncludingDeleted().map(e => e.id === "one" ? {...e, isDeleted: true, version: e.version + 1} : e), captureUpdate: lib.CaptureUpdateAction.IMMEDIATELY});
		return true;
	})()`)
	w.waitJS(tab, "the save within the limit", `window.dshEditor.state().status === "saved" && window.dshEditor.state().revision === 2`)
}

// TestNavigationsGetPages: a person who opens dsh without a session, or an
// address that is not a page, sees a page that says what happened and
// what to do — never JSON. The host's root leads to the editor.
func TestNavigationsGetPages(t *testing.T) {
	w := newWorld(t)
	stranger, cancel := chromedp.NewContext(w.browser, chromedp.WithNewBrowserContext())
	defer cancel()
	w.watch(stranger)

	w.run(stranger, chromedp.Navigate(w.host.URL()+"/"))
	w.waitJS(stranger, "the not-logged-in page", `document.title.includes("Not logged in")`)
	if loc := evalJS[string](w, stranger, `location.pathname`); loc != "/dsh-excalidraw/" {
		t.Fatalf("the root led to %s, want the editor", loc)
	}
	text := evalJS[string](w, stranger, `document.body.innerText`)
	if !strings.Contains(text, "dsh login") || strings.Contains(text, `"error"`) {
		t.Fatalf("not-logged-in page:\n%s", text)
	}

	w.run(stranger, chromedp.Navigate(w.host.URL()+"/no/such/page"))
	w.waitJS(stranger, "the not-found page", `document.title.includes("Nothing here")`)

	// With a session, the root is the editor.
	w.run(w.browser, chromedp.Navigate(w.host.URL()+"/"))
	w.waitJS(w.browser, "the editor from the root", `document.querySelector(".dsh-create") !== null`)
}
