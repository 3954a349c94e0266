package storetest

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// commitIDs: every commit's Result names its journal entry (Commit); a
// retry of the newest commit's request id names that same commit, an
// older one's the same or none (a store may not know it cheaply), and a
// write that changed nothing names none.
func commitIDs(t *testing.T, b store.Backend) {
	created := mustCreate(t, b, "plan", Doc(1, "a"))
	saved := mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(1, "b"), RequestID: "tab:1"})
	updated, err := b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: 2, Actor: store.ActorAgent, RequestID: "tab:2",
		Mutate: func(*store.Scene) ([]byte, error) { return Doc(2, "c"), nil }})
	if err != nil {
		t.Fatal(err)
	}
	es := entries(t, b, store.LogQuery{Name: "plan"}) // newest first
	if len(es) != 3 {
		t.Fatalf("entries: %+v", es)
	}
	for i, res := range []*store.Result{updated, saved, created} {
		if res.Commit == "" || res.Commit != es[i].Commit || res.Revision != es[i].Revision {
			t.Fatalf("revision %d's result names commit %q; its journal entry is %q", res.Revision, res.Commit, es[i].Commit)
		}
	}
	again, err := b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: 2, Actor: store.ActorAgent, RequestID: "tab:2",
		Mutate: func(*store.Scene) ([]byte, error) { return Doc(2, "z"), nil }})
	if err != nil || !again.Duplicate || again.Commit != updated.Commit {
		t.Fatalf("a retry of the newest commit: %v %+v, want commit %s", err, again, updated.Commit)
	}
	older, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 1, Data: Doc(1, "b"), Actor: store.ActorUI, RequestID: "tab:1"})
	if err != nil || !older.Duplicate || (older.Commit != "" && older.Commit != saved.Commit) {
		t.Fatalf("a retry of an older commit: %v %+v, want commit %s or none", err, older, saved.Commit)
	}
	same, err := b.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: 3, Data: Doc(2, "c"), Actor: store.ActorUI})
	if err != nil || !same.Unchanged || same.Commit != "" {
		t.Fatalf("an unchanged write: %v %+v", err, same)
	}
}
