package service

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// TestOnCommitReportsEveryNewRevision drives each write path and checks
// the hook saw exactly the committed revisions, with their actors, and
// nothing for a repeated request id, a refused write or an unchanged save.
func TestOnCommitReportsEveryNewRevision(t *testing.T) {
	var got []Head
	s, err := New(Config{
		DrawingsDir: filepath.Join(t.TempDir(), "drawings"), LockTimeout: 2 * time.Second,
		Now:      func() time.Time { return time.UnixMilli(1793136000000) },
		Rand:     rand.New(rand.NewPCG(7, 7)),
		OnCommit: func(h Head) { got = append(got, h) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })

	created := createFlow(t, s, "flow")
	applied, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, RequestID: "req-1",
		Operations: raws(`{"op":"update","id":"a","patch":{"x":5}}`)})
	if err != nil {
		t.Fatal(err)
	}
	dup, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, RequestID: "req-1",
		Operations: raws(`{"op":"update","id":"a","patch":{"x":5}}`)})
	if err != nil || !dup.Duplicate {
		t.Fatalf("repeat: %+v, %v", dup, err)
	}
	_, err = s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(`{"op":"delete","id":"a"}`)})
	wantCode(t, err, sceneerr.RevisionConflict)
	read, err := s.Read(ctx, ReadRequest{Name: "flow"})
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(read.Scene, []byte(`"viewBackgroundColor": "#ffffff"`), []byte(`"viewBackgroundColor": "#fff3bf"`), 1)
	if bytes.Equal(edited, read.Scene) {
		t.Fatal("no background to edit")
	}
	saved, err := s.Save(ctx, SaveRequest{Name: "flow", Scene: edited, ExpectedRevision: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Saving it again changes nothing, so there is nothing to report.
	if again, err := s.Save(ctx, SaveRequest{Name: "flow", Scene: edited, ExpectedRevision: 3}); err != nil || !again.Unchanged {
		t.Fatalf("unchanged save: %+v, %v", again, err)
	}

	want := []struct {
		res   *WriteResult
		actor string
	}{{created, "agent"}, {applied, "agent"}, {saved, "ui"}}
	if len(got) != len(want) {
		t.Fatalf("hook ran %d times, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		h := got[i]
		if h.Name != "flow" || h.Revision != w.res.Revision || h.SHA256 != w.res.SHA256 ||
			h.ElementCount != w.res.ElementCount || h.UpdatedAt != w.res.SavedAt || h.UpdatedBy != w.actor {
			t.Errorf("commit %d: hook got %+v, write returned %+v (actor %s)", i, h, w.res, w.actor)
		}
	}
}

func TestHeadIsTheStoredRecord(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	res := createFlow(t, s, "flow")
	h, err := s.Head(ctx, "flow")
	if err != nil {
		t.Fatal(err)
	}
	want := Head{Name: "flow", Revision: 1, SHA256: res.SHA256, ElementCount: res.ElementCount, UpdatedAt: res.SavedAt, UpdatedBy: "agent"}
	if h != want {
		t.Fatalf("Head = %+v, want %+v", h, want)
	}
	_, err = s.Head(ctx, "missing")
	wantCode(t, err, sceneerr.NotFound)
	_, err = s.Head(ctx, "Bad Name")
	wantCode(t, err, sceneerr.InvalidName)
}
