package editor_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dshgo/dsh/plugins/webserver/accounts"
)

// The share dialog and its parts.
const (
	shareDialog = `dialog[data-testid="share-dialog"]`
	personInput = shareDialog + ` input[name="person"]`
)

// memberRowJS finds a person's row in the share dialog.
func memberRowJS(name string) string {
	return fmt.Sprintf(`document.querySelector('%s li[data-member=%q]')`, shareDialog, name)
}

// sharing is GET /boards/:name/members.
type sharing struct {
	Owner   string `json:"owner"`
	Members []struct {
		Name string `json:"name"`
		Role string `json:"role"`
	} `json:"members"`
}

func (s sharing) String() string {
	var parts []string
	for _, m := range s.Members {
		parts = append(parts, m.Name+":"+m.Role)
	}
	return strings.Join(parts, ",")
}

// TestShareUI: the owner creates a board, opens Share from its row, adds
// a person who has an account as a viewer, makes her an editor (the API
// agrees), tries a name nobody has (the server's words show in the
// dialog, beside the field), and removes her (the list is empty, and so
// is the API's). The person, signed in as herself while it is shared
// with her, sees the board but no Share, Rename or Delete on it. Escape
// closes the dialog and gives focus back to the Share button.
func TestShareUI(t *testing.T) {
	w := newWorld(t)
	const erinPassword = "a long password for erin"
	people := accounts.Open(accounts.File(w.dataDir()), accounts.Options{})
	_, secret, err := people.Add(t.Context(), "erin", "", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := people.AcceptInvite(t.Context(), secret, erinPassword); err != nil {
		t.Fatal(err)
	}

	// The owner creates a board from the sidebar.
	tab := w.browser
	w.waitBoardsAPI(tab)
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-create input`)))
	w.run(tab, chromedp.KeyEvent("roadmap"))
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-create button[type="submit"]`)))
	w.waitJS(tab, "the new board open", `window.dshEditor?.name === "roadmap" && document.querySelector(".excalidraw canvas") !== null`)
	w.waitJS(tab, "the owner's Share on its row", boardRowJS("roadmap")+`?.querySelector('button[data-action="share"]') != null`)
	if order := evalJS[string](w, tab, `[...`+boardRowJS("roadmap")+`.querySelectorAll('.dsh-board-actions button')].map(b => b.dataset.action).join(",")`); order != "share,rename,delete" {
		t.Errorf("the row's actions are %s, want share,rename,delete", order)
	}
	me := evalJS[string](w, tab, `fetch("/dsh-excalidraw/api/me").then(r => r.json()).then(m => m.name)`)
	if me == "" {
		t.Fatal("/api/me names nobody")
	}
	// The editor's own toolbar has no Share.
	if n := evalJS[int](w, tab, `document.querySelectorAll('.dsh-main [data-action="share"]').length`); n != 0 {
		t.Errorf("the editor has %d Share buttons, want none", n)
	}

	// Share opens with the name field focused: the owner, nobody else.
	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-scenes li[data-board="roadmap"] button[data-action="share"]`)))
	w.waitJS(tab, "the share dialog", `document.querySelector('`+shareDialog+`')?.open === true && document.activeElement === document.querySelector('`+personInput+`')`)
	w.waitJS(tab, "the dialog's list loaded", `document.querySelector('`+shareDialog+` [data-testid="no-members"]') !== null`)
	if h := evalJS[string](w, tab, `document.getElementById(document.querySelector('`+shareDialog+`').getAttribute("aria-labelledby")).textContent`); h != "Share “roadmap”" {
		t.Errorf("the dialog is titled %q", h)
	}
	if owner := evalJS[string](w, tab, `document.querySelector('`+shareDialog+` [data-testid="owner"]').textContent`); !strings.HasPrefix(owner, me+" (you)") || !strings.HasSuffix(owner, "Owner") {
		t.Errorf("the owner's row reads %q, want %s (you) … Owner", owner, me)
	}
	// Every control has a name a screen reader can say.
	if unnamed := evalJS[string](w, tab, `[...document.querySelectorAll('`+shareDialog+` input, `+shareDialog+` select, `+shareDialog+` button')].filter(e => !(e.labels?.length || e.getAttribute("aria-label") || e.textContent.trim())).map(e => e.outerHTML).join("\n")`); unnamed != "" {
		t.Errorf("controls without a name:\n%s", unnamed)
	}
	w.keepScreenshot(tab, "share-empty")

	// Add erin as a viewer.
	w.run(tab, chromedp.KeyEvent("erin"))
	w.pick(tab, shareDialog+` select[name="role"]`, "viewer")
	w.run(tab, chromedp.Click(chromedp.CSS(shareDialog+` button[data-action="add-member"]`)))
	w.waitJS(tab, "erin listed as a viewer", memberRowJS("erin")+`?.querySelector('select').value === "viewer"`)
	if said := evalJS[string](w, tab, `document.querySelector('`+shareDialog+` [role="status"]').textContent`); said != "Shared with erin: they can view it." {
		t.Errorf("after adding, the dialog says %q", said)
	}
	if v := evalJS[string](w, tab, `document.activeElement === document.querySelector('`+personInput+`') ? document.activeElement.value : "focus elsewhere: " + document.activeElement.outerHTML`); v != "" {
		t.Errorf("after adding, the name field holds %q, want it empty and focused", v)
	}
	if got := w.members(tab, "roadmap"); got.String() != "erin:viewer" || got.Owner != me {
		t.Errorf("after adding, the API has owner %q, members %s", got.Owner, got)
	}
	w.keepScreenshot(tab, "share-added-viewer")

	// Make her an editor.
	w.pick(tab, `li[data-member="erin"] select[name="member-role"]`, "editor")
	w.waitJS(tab, "the role changed", `document.querySelector('`+shareDialog+` [role="status"]').textContent === "erin can now edit it."`)
	if got := w.members(tab, "roadmap"); got.String() != "erin:editor" {
		t.Errorf("after the change, the API has %s, want erin:editor", got)
	}
	if v := evalJS[string](w, tab, memberRowJS("erin")+`.querySelector('select').value`); v != "editor" {
		t.Errorf("erin's role reads %q, want editor", v)
	}

	// Erin, signed in as herself, sees the board and may not share it.
	erin, cancel := chromedp.NewContext(w.browser, chromedp.WithNewBrowserContext())
	defer cancel()
	w.watch(erin)
	w.run(erin, chromedp.Navigate(w.host.URL()+"/login?next="+url.QueryEscape("/dsh-excalidraw/")))
	w.waitJS(erin, "the login form", `document.querySelector('input[name="password"]') !== null`)
	w.run(erin, chromedp.SendKeys(chromedp.CSS(`input[name="name"]`), "erin"), chromedp.SendKeys(chromedp.CSS(`input[name="password"]`), erinPassword), chromedp.Submit(chromedp.CSS(`input[name="password"]`)))
	w.waitAcrossNavigation(erin, "the editor after erin's login", `location.pathname === "/dsh-excalidraw/" && document.readyState === "complete"`)
	w.waitJS(erin, "erin's board list", `document.querySelector('[data-testid="signed-in"] strong')?.textContent === "erin" && document.querySelector('.dsh-sidebar button[data-action="trash"]') !== null && `+boardRowJS("roadmap")+` !== null`)
	if role := evalJS[string](w, erin, `fetch("/dsh-excalidraw/api/boards").then(r => r.json()).then(d => d.boards.find(b => b.name === "roadmap")?.role || "")`); role != "editor" {
		t.Errorf("erin's role on the board is %q, want editor", role)
	}
	if n := evalJS[int](w, erin, `document.querySelectorAll('.dsh-board-actions button').length`); n != 0 {
		t.Errorf("erin sees %d owner's actions, want none", n)
	}
	refused := evalJS[string](w, erin, `fetch("/dsh-excalidraw/api/boards/roadmap/members/erin", {method: "PUT", headers: {"Content-Type": "application/json"}, body: '{"role":"viewer"}'}).then(r => r.json().then(d => r.status + " " + (d.error?.code || "")))`)
	if refused != "403 permission_denied" {
		t.Errorf("erin's own PUT /members got %s, want 403 permission_denied", refused)
	}
	w.keepScreenshot(erin, "share-as-erin")
	w.noConsoleErrorsBut(erin, "status of 403")

	// A name nobody has: the server's message, beside the field.
	w.run(tab, chromedp.Click(chromedp.CSS(personInput)))
	w.run(tab, chromedp.KeyEvent("zed"))
	w.run(tab, chromedp.Click(chromedp.CSS(shareDialog+` button[data-action="add-member"]`)))
	const alert = `document.querySelector('` + shareDialog + ` .dsh-share-add [role="alert"]')`
	w.waitJS(tab, "the unknown name refused", alert+` !== null`)
	msg := evalJS[string](w, tab, alert+`.textContent`)
	if !strings.HasPrefix(msg, "Could not add zed: ") || !strings.Contains(msg, `no person is named "zed"`) || !strings.Contains(msg, "dsh user add") {
		t.Errorf("the unknown name's message reads %q", msg)
	}
	field := evalJS[map[string]any](w, tab, `(() => { const i = document.querySelector('`+personInput+`'); return {value: i.value, invalid: i.getAttribute("aria-invalid") || "", describedBy: i.getAttribute("aria-describedby") === `+alert+`.id, focused: document.activeElement === i}; })()`)
	if field["value"] != "zed" || field["invalid"] != "true" || field["describedBy"] != true || field["focused"] != true {
		t.Errorf("after the refusal the name field is %v, want zed, invalid, described by the message, focused", field)
	}
	if got := w.members(tab, "roadmap"); got.String() != "erin:editor" {
		t.Errorf("after the refusal, the API has %s", got)
	}
	w.keepScreenshot(tab, "share-unknown-person")

	// Remove erin: nobody left, and focus back in the name field.
	w.run(tab, chromedp.Click(chromedp.CSS(`li[data-member="erin"] button[data-action="remove-member"]`)))
	w.waitJS(tab, "erin removed", memberRowJS("erin")+` === null && document.querySelector('`+shareDialog+` [data-testid="no-members"]') !== null`)
	if said := evalJS[string](w, tab, `document.querySelector('`+shareDialog+` [role="status"]').textContent`); said != "erin no longer has access." {
		t.Errorf("after removing, the dialog says %q", said)
	}
	if focused := evalJS[bool](w, tab, `document.activeElement === document.querySelector('`+personInput+`')`); !focused {
		t.Errorf("after removing, the focus is on %s", evalJS[string](w, tab, `document.activeElement.outerHTML`))
	}
	if got := w.members(tab, "roadmap"); len(got.Members) != 0 {
		t.Errorf("after removing, the API has %s", got)
	}
	w.keepScreenshot(tab, "share-removed")
	// In the dark theme too, for the screenshots.
	if os.Getenv("DSH_SCREENSHOTS") != "" {
		evalJS[bool](w, tab, `(window.dshEditor.api.updateScene({appState: {theme: "dark"}}), true)`)
		w.waitJS(tab, "the dark theme", `document.querySelector(".dsh-layout.dsh-dark") !== null`)
		w.keepScreenshot(tab, "share-dark")
	}

	// Escape closes it; the focus goes back to Share.
	w.run(tab, chromedp.KeyEvent(kb.Escape))
	w.waitJS(tab, "the dialog closed", `document.querySelector('`+shareDialog+`') === null`)
	if focused := evalJS[string](w, tab, `document.activeElement?.dataset?.action || document.activeElement?.outerHTML`); focused != "share" {
		t.Errorf("after Escape the focus is on %q, want the Share button", focused)
	}
	w.noConsoleErrorsBut(tab, "status of 404")
}

// dataDir is the host's data directory: the temporary directory beside
// the drawings' that holds the accounts file.
func (w *world) dataDir() string {
	w.t.Helper()
	found, err := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(w.drawings)), "*", accounts.FileName))
	if err != nil || len(found) != 1 {
		w.t.Fatalf("the host's data directory: found %v (%v)", found, err)
	}
	return filepath.Dir(found[0])
}

// waitAcrossNavigation polls a JS condition like waitJS, through the
// navigations a form's submit starts (which end a poll).
func (w *world) waitAcrossNavigation(tab context.Context, what, cond string) {
	w.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(tab, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			w.screenshot(tab, what)
			w.t.Fatalf("waiting for %s: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pick chooses an option of a <select>, as a person does: it fires the
// change event the page listens to.
func (w *world) pick(tab context.Context, sel, value string) {
	w.t.Helper()
	ok := evalJS[bool](w, tab, fmt.Sprintf(`(() => {
		const s = document.querySelector(%q);
		if (!s || ![...s.options].some(o => o.value === %q)) return false;
		s.focus();
		s.value = %q;
		s.dispatchEvent(new Event("change", {bubbles: true}));
		return true;
	})()`, sel, value, value))
	if !ok {
		w.screenshot(tab, "pick")
		w.t.Fatalf("no option %q in %s", value, sel)
	}
}

// members is the board's sharing as the API has it, asked from the tab.
func (w *world) members(tab context.Context, board string) sharing {
	w.t.Helper()
	return evalJS[sharing](w, tab, fmt.Sprintf(`fetch("/dsh-excalidraw/api/boards/%s/members").then(r => r.json())`, url.PathEscape(board)))
}

// TestShareBesideTheCanvas: the owner of an open board finds Share at the
// top right of the canvas, beside Excalidraw's own buttons, and it opens
// the share dialog; a person the board is shared with as a viewer has
// none.
func TestShareBesideTheCanvas(t *testing.T) {
	w := newWorld(t)
	const password = "a long password for erin"
	w.invite("erin", password)
	tab := w.browser
	w.shareNewBoard(tab, "shared", "erin", "viewer")
	w.openScene(tab, "shared")
	w.waitJS(tab, "Share beside the canvas", `document.querySelector('[data-action="share-top"]') !== null`)
	vw := evalJS[float64](w, tab, `window.innerWidth`)
	b := evalJS[*box](w, tab, rectJS(`document.querySelector('[data-action="share-top"]')`))
	if b == nil || b.Y > 60 || b.X+b.W < vw-300 {
		t.Fatalf("Share is at %+v, not at the top right of a %v px wide page", b, vw)
	}
	w.keepScreenshot(tab, "share-top")
	w.run(tab, chromedp.Click(chromedp.CSS(`[data-action="share-top"]`)))
	w.waitJS(tab, "the share dialog", `document.querySelector('`+shareDialog+`')?.open === true`)

	erin := w.signIn("erin", password)
	w.openScene(erin, "shared")
	if n := evalJS[int](w, erin, `document.querySelectorAll('[data-action="share-top"]').length`); n != 0 {
		t.Errorf("a viewer has %d Share buttons", n)
	}
	w.noConsoleErrorsBut(tab)
}

// shareNewBoard makes a board from tab's page and shares it with a person
// in a role, through the API the page uses.
func (w *world) shareNewBoard(tab context.Context, board, person, role string) {
	w.t.Helper()
	if created := evalJS[int](w, tab, fmt.Sprintf(`fetch("/dsh-excalidraw/api/scenes", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: %q})}).then(r => r.status)`, board)); created != 201 && created != 200 {
		w.t.Fatalf("creating board %s: HTTP %d", board, created)
	}
	if shared := evalJS[int](w, tab, fmt.Sprintf(`fetch("/dsh-excalidraw/api/boards/%s/members/%s", {method: "PUT", headers: {"Content-Type": "application/json"}, body: JSON.stringify({role: %q})}).then(r => r.status)`, board, person, role)); shared != 200 {
		w.t.Fatalf("sharing board %s with %s: HTTP %d", board, person, shared)
	}
}
