package service

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/journal"
	"github.com/dshgo/dsh/plugins/identity"
)

// Every commit is named by the credential it came with, whatever name the
// writer's request carried: a connect token by its name and its person, a
// host token by its name, a person by theirs with their id; an agent's
// client name stays a detail. The board's head (the list's and the live
// events' updatedByName) says the same name as the journal.
func TestCommitsAreNamedByTheirCredential(t *testing.T) {
	s, _ := historyScene(t)
	bot := identity.Principal{Kind: identity.KindToken, ID: "tok_c", Name: "claude", Person: "per_erin", PersonName: "erin",
		Grant: identity.NewGrant(map[string]any{})}
	host := identity.Principal{Kind: identity.KindToken, ID: "tok_h", Name: "cli", Admin: true}
	erin := identity.Principal{Kind: identity.KindSession, ID: "ses_e", Name: "erin", Person: "per_erin", PersonName: "erin"}
	i := 0
	for _, c := range []struct {
		who    identity.Principal
		actor  store.Actor
		claims store.Attribution
		want   LogRow
	}{
		{bot, store.ActorAgent, store.Attribution{Name: "bar", Client: "bar", Via: "update_elements"},
			LogRow{Name: "claude (for erin)", Bot: "claude", Person: "erin", PersonID: "per_erin", Client: "bar"}},
		{host, store.ActorAgent, store.Attribution{Client: "inspector-cli", Via: "update_elements"},
			LogRow{Name: "cli", Client: "inspector-cli"}},
		{erin, store.ActorUI, store.Attribution{Via: "editor"},
			LogRow{Name: "erin", Person: "erin", PersonID: "per_erin"}},
	} {
		i++
		wctx := identity.With(ctx, c.who)
		if _, err := s.Apply(wctx, ApplyRequest{Name: "h", ExpectedRevision: int64(i), Actor: c.actor, Attribution: c.claims,
			Operations: raws(fmt.Sprintf(`{"op":"update","id":"a","patch":{"x":%d}}`, 10*i))}); err != nil {
			t.Fatalf("%s: %v", c.who.ID, err)
		}
		row := newest(t, s)
		if row.Name != c.want.Name || row.Bot != c.want.Bot || row.Person != c.want.Person ||
			row.PersonID != c.want.PersonID || row.Client != c.want.Client {
			t.Errorf("%s wrote, the log says name %q bot %q person %q personId %q client %q; want %+v",
				c.who.ID, row.Name, row.Bot, row.Person, row.PersonID, row.Client, c.want)
		}
		head, err := s.Head(ctx, "h")
		if err != nil || head.UpdatedByName != c.want.Name {
			t.Errorf("%s wrote, the head names %q (%v), want %q", c.who.ID, head.UpdatedByName, err, c.want.Name)
		}
	}
	// The log finds a person's commits by their id, and an agent's by
	// its client's name.
	for q, want := range map[string]int{"per_erin": 2, "inspector-cli": 1} {
		page, err := s.Log(ctx, LogRequest{Name: "h", Actor: q})
		if err != nil || len(page.Entries) != want {
			t.Errorf("log by %q: %d entries (%v), want %d", q, len(page.Entries), err, want)
		}
	}
}

// TestSummariesInPeoplesWords: what a commit changed, as a person reads
// it: the document's members and settings by what they are, never by
// their keys.
func TestSummariesInPeoplesWords(t *testing.T) {
	for _, c := range []struct {
		e    journal.Entry
		want string
	}{
		{journal.Entry{Created: []string{"a", "b"}, Updated: []string{"c"}, Moved: []string{"c"}}, "created 2, moved 1"},
		{journal.Entry{Members: []string{"appState"}, Images: journal.ImagesStored}, "changed the board's settings"},
		{journal.Entry{Members: []string{"appState"}, Settings: []string{"viewBackgroundColor"}}, "changed the background"},
		{journal.Entry{Members: []string{"appState"}, Settings: []string{"gridModeEnabled", "gridSize"}}, "changed the grid"},
		{journal.Entry{Members: []string{"appState", "files"}, Settings: []string{"gridSize", "theme", "viewBackgroundColor"}},
			"changed the background, the grid, the board's settings and images"},
		{journal.Entry{Members: []string{"files"}, Images: journal.ImagesStored}, "changed images"},
		{journal.Entry{Deleted: []string{"a"}, Members: []string{"appState", "files"}}, "deleted 1, changed the board's settings and images"},
		{journal.Entry{Images: journal.ImagesStored}, "nothing changed"},
		{journal.Entry{Images: journal.ImagesUnavailable}, "changed the board (what changed was not recorded)"},
	} {
		if got := Summarize(&c.e); got != c.want {
			t.Errorf("Summarize(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
}

// TestJournalSaysWhichSettingsChanged: a save that changes the board's
// background is journaled with the appState member it changed, and
// summarized as changing the background.
func TestJournalSaysWhichSettingsChanged(t *testing.T) {
	s, _ := historyScene(t)
	read, err := s.Read(ctx, ReadRequest{Name: "h"})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(read.Scene, &m); err != nil {
		t.Fatal(err)
	}
	app, _ := m["appState"].(map[string]any)
	if app == nil {
		app = map[string]any{}
	}
	app["viewBackgroundColor"] = "#ffc9c9"
	m["appState"] = app
	changed, _ := json.Marshal(m)
	if _, err := s.Save(ctx, SaveRequest{Name: "h", Scene: changed, ExpectedRevision: read.Revision}); err != nil {
		t.Fatal(err)
	}
	row := newest(t, s)
	if row.Summary != "changed the background" || !slices.Equal(row.Members, []string{"appState"}) || !slices.Equal(row.Settings, []string{"viewBackgroundColor"}) {
		t.Fatalf("the background's save = summary %q, members %v, settings %v", row.Summary, row.Members, row.Settings)
	}
}
