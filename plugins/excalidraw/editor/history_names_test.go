package editor_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// entryJS finds a revision's entry in the history panel.
func entryJS(rev int) string {
	return fmt.Sprintf(`document.querySelector('.dsh-history .dsh-entry[data-revision="%d"]')`, rev)
}

// entryWriter is who an entry says made the change.
func (w *world) entryWriter(tab context.Context, rev int) string {
	w.t.Helper()
	return evalJS[string](w, tab, `(e => (e.querySelector('[data-testid="who"]') || e.querySelector('[data-testid="bot"]')).textContent)(`+entryJS(rev)+`)`)
}

// canUndo reports whether an entry offers "Undo this change".
func (w *world) canUndo(tab context.Context, rev int) bool {
	w.t.Helper()
	return evalJS[bool](w, tab, entryJS(rev)+`.querySelector('button[data-action="undo"]') !== null`)
}

// TestHistoryNamesPeople: the history says "you" for the person's own
// changes, names an agent by its token and the person it acts for
// ("claude for you"; on another person's page "claude for root"), the
// agent's client only as a detail, and offers "Undo this change" only
// where it would change something: not for a change already undone, and
// not at all to a viewer.
func TestHistoryNamesPeople(t *testing.T) {
	w := newWorld(t)
	const erinPassword = "a long password for erin"
	w.invite("erin", erinPassword)
	tab := w.browser
	w.shareNewBoard(tab, "names", "erin", "viewer")
	me := evalJS[string](w, tab, `fetch("/dsh-excalidraw/api/me").then(r => r.json()).then(m => m.person || m.name)`)
	w.openScene(tab, "names")
	w.draw(tab, "mine", 0, 0)
	w.waitJS(tab, "the person's box saved", `window.dshEditor.state().revision === 2 && window.dshEditor.state().status === "saved" && !window.dshEditor.state().dirty`)
	claude := w.connectWith(w.mintToken(tab, "claude", "names", "editor"))
	if res := w.callAs(claude, "batch_create", map[string]any{"name": "names", "elements": []any{
		map[string]any{"type": "ellipse", "id": "from-claude", "x": 300, "y": 0, "width": 100, "height": 80},
	}}); res.IsError {
		t.Fatalf("claude's batch_create: %s", resultText(res))
	}
	w.waitJS(tab, "claude's ellipse", pageHasJS("from-claude")+` && window.dshEditor.state().revision === 3`)

	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="history"]`)))
	w.waitJS(tab, "three entries", `document.querySelectorAll('.dsh-history .dsh-entry').length === 3`)
	for rev, want := range map[int]string{1: "you", 2: "you", 3: "claude for you"} {
		if got := w.entryWriter(tab, rev); got != want {
			t.Errorf("r%d is by %q, want %q", rev, got, want)
		}
	}
	meta := evalJS[string](w, tab, entryJS(3)+`.querySelector('.dsh-entry-meta').textContent`)
	if !strings.Contains(meta, "client snippet-client") {
		t.Errorf("claude's entry's details say %q, want its client", meta)
	}
	if line := evalJS[string](w, tab, entryJS(3)+`.querySelector('.dsh-entry-line').textContent`); strings.Contains(line, "snippet-client") {
		t.Errorf("the client is named as the writer: %q", line)
	}
	if !w.canUndo(tab, 3) || !w.canUndo(tab, 2) {
		t.Errorf("the owner is not offered to undo r2 and r3")
	}
	// Making the empty board changed nothing: nothing to undo.
	if summary := evalJS[string](w, tab, entryJS(1)+`.querySelector('.dsh-entry-summary').textContent`); summary == "nothing changed" && w.canUndo(tab, 1) {
		t.Errorf("undo offered for a change that changed nothing")
	}

	w.run(tab, chromedp.Click(chromedp.CSS(`.dsh-history .dsh-entry[data-revision="3"] button[data-action="undo"]`)))
	w.waitJS(tab, "the undo in the history", entryJS(4)+` !== null && !(`+pageHasJS("from-claude")+`)`)
	if got := w.entryWriter(tab, 4); got != "you" {
		t.Errorf("the undo is by %q, want you", got)
	}
	w.waitJS(tab, "claude's change marked undone, with no undo left", entryJS(3)+`.textContent.includes("undone in r4") && `+entryJS(3)+`.querySelector('button[data-action="undo"]') === null`)
	w.keepScreenshot(tab, "history-names")

	// Erin, a viewer, reads the same story in her words, with no undo.
	erin := w.signIn("erin", erinPassword)
	w.openScene(erin, "names")
	w.run(erin, chromedp.Click(chromedp.CSS(`.dsh-status button[data-action="history"]`)))
	w.waitJS(erin, "erin's history", `document.querySelectorAll('.dsh-history .dsh-entry').length === 4`)
	for rev, want := range map[int]string{2: me, 3: "claude for " + me, 4: me} {
		if got := w.entryWriter(erin, rev); got != want {
			t.Errorf("on erin's page r%d is by %q, want %q", rev, got, want)
		}
	}
	if n := evalJS[int](w, erin, `document.querySelectorAll('.dsh-history button[data-action="undo"]').length`); n != 0 {
		t.Errorf("a viewer is offered %d undos", n)
	}
	w.noConsoleErrorsBut(tab)
}
