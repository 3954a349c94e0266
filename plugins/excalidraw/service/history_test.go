package service

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// historyScene makes scene h with boxes a, b, c (revision 1).
func historyScene(t *testing.T) (*Service, string) {
	t.Helper()
	s, dir := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "h", Elements: raws(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":50,"height":50}`,
		`{"type":"rectangle","id":"b","x":100,"y":0,"width":50,"height":50}`,
		`{"type":"rectangle","id":"c","x":200,"y":0,"width":50,"height":50}`,
	), Attribution: store.Attribution{Name: "claude", Via: "excalidraw_scene_create"}}); err != nil {
		t.Fatal(err)
	}
	return s, dir
}

func applyOps(t *testing.T, s *Service, ops ...string) int64 {
	t.Helper()
	head, err := s.Head(ctx, "h")
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Apply(ctx, ApplyRequest{Name: "h", ExpectedRevision: head.Revision, Operations: raws(ops...),
		Attribution: store.Attribution{Name: "claude", Via: "excalidraw_scene_apply", Note: fmt.Sprint(ops)}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Revision
}

func newest(t *testing.T, s *Service) LogRow {
	t.Helper()
	page, err := s.Log(ctx, LogRequest{Name: "h", Limit: 1})
	if err != nil || len(page.Entries) != 1 {
		t.Fatalf("log: %+v, %v", page, err)
	}
	return page.Entries[0]
}

func x(t *testing.T, dir, id string) float64 {
	t.Helper()
	v, _ := element(t, checkStored(t, dir, "h"), id).Number("x")
	return v
}

func isDeletedIn(t *testing.T, dir, id string) bool {
	t.Helper()
	_, el := checkStored(t, dir, "h").Find(id)
	return el == nil || scene.IsDeleted(el)
}

func TestLogRowsSayWhoAndWhat(t *testing.T) {
	s, _ := historyScene(t)
	applyOps(t, s, `{"op":"update","id":"a","patch":{"x":10}}`, `{"op":"update","id":"b","patch":{"strokeColor":"#e03131"}}`)
	page, err := s.Log(ctx, LogRequest{Name: "h"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entries) != 2 || page.Revision != 2 {
		t.Fatalf("entries %d at revision %d", len(page.Entries), page.Revision)
	}
	e := page.Entries[0]
	if e.Revision != 2 || e.Actor != "agent" || e.Name != "claude" || e.Via != "excalidraw_scene_apply" ||
		e.Summary != "moved 1, changed 1" || !slices.Equal(e.Moved, []string{"a"}) || !e.Restorable {
		t.Fatalf("newest row = %+v", e)
	}
	if c := page.Entries[1]; c.Summary != "created 3" || len(c.Created) != 3 {
		t.Fatalf("create row = %+v", c)
	}
	byB, _ := s.Log(ctx, LogRequest{Name: "h", Element: "b", Actor: "claude", MinRevision: 2})
	if len(byB.Entries) != 1 || byB.Entries[0].Revision != 2 {
		t.Fatalf("filtered = %+v", byB.Entries)
	}
	if _, err := s.Log(ctx, LogRequest{Name: "h", Since: "yesterday"}); sceneerr.CodeOf(err) != sceneerr.InvalidOperation {
		t.Fatalf("bad since: %v", err)
	}
}

func TestRevertKeepsLaterUnrelatedCommits(t *testing.T) {
	s, dir := historyScene(t)
	applyOps(t, s, `{"op":"update","id":"a","patch":{"x":10}}`)
	target := newest(t, s).Commit
	applyOps(t, s, `{"op":"update","id":"b","patch":{"x":120}}`)
	env, err := s.Restore(ctx, RestoreRequest{Name: "h", From: target, Mode: ModeRevert})
	if err != nil {
		t.Fatal(err)
	}
	if x(t, dir, "a") != 0 || x(t, dir, "b") != 120 || len(env.Collateral) != 0 || !slices.Equal(env.Changed.Updated, []string{"a"}) {
		t.Fatalf("a=%v b=%v envelope %+v", x(t, dir, "a"), x(t, dir, "b"), env)
	}
	row := newest(t, s)
	if row.Undoes != target || row.Mode != ModeRevert || row.Via != "restore" {
		t.Fatalf("revert's own entry = %+v", row)
	}
}

func TestRevertReportsCollateralInsteadOfClobbering(t *testing.T) {
	s, dir := historyScene(t)
	applyOps(t, s, `{"op":"update","id":"a","patch":{"x":10}}`, `{"op":"update","id":"c","patch":{"x":210}}`)
	target := newest(t, s).Commit
	applyOps(t, s, `{"op":"update","id":"a","patch":{"x":30}}`)
	env, err := s.Restore(ctx, RestoreRequest{Name: "h", From: target})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(env.Collateral, []string{"a"}) || x(t, dir, "a") != 30 || x(t, dir, "c") != 200 {
		t.Fatalf("collateral %v, a=%v c=%v", env.Collateral, x(t, dir, "a"), x(t, dir, "c"))
	}
	// restore clobbers: a goes back to what it was before the commit
	if _, err := s.Restore(ctx, RestoreRequest{Name: "h", From: target, Mode: ModeRestore, IDs: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	if x(t, dir, "a") != 0 {
		t.Fatalf("restore left a at %v", x(t, dir, "a"))
	}
}

func TestRestoreRevivesADeletedElementAboveItsTombstone(t *testing.T) {
	s, dir := historyScene(t)
	applyOps(t, s, `{"op":"delete","id":"b"}`)
	del := newest(t, s).Commit
	_, tomb := checkStored(t, dir, "h").Find("b")
	tombVersion, _ := tomb.Number("version")
	env, err := s.Restore(ctx, RestoreRequest{Name: "h", From: del})
	if err != nil {
		t.Fatal(err)
	}
	_, back := checkStored(t, dir, "h").Find("b")
	v, _ := back.Number("version")
	if scene.IsDeleted(back) || v <= tombVersion || !slices.Equal(env.Changed.Revived, []string{"b"}) {
		t.Fatalf("b deleted=%v version %v (tombstone %v), envelope %+v", scene.IsDeleted(back), v, tombVersion, env.Changed)
	}
}

func TestRevertOfARevert(t *testing.T) {
	s, dir := historyScene(t)
	applyOps(t, s, `{"op":"add","element":{"type":"ellipse","id":"d","x":0,"y":100,"width":50,"height":50}}`)
	add := newest(t, s).Commit
	if _, err := s.Restore(ctx, RestoreRequest{Name: "h", From: add}); err != nil {
		t.Fatal(err)
	}
	if !isDeletedIn(t, dir, "d") {
		t.Fatal("reverting the add left d")
	}
	undo := newest(t, s).Commit
	if _, err := s.Restore(ctx, RestoreRequest{Name: "h", From: undo}); err != nil {
		t.Fatal(err)
	}
	if isDeletedIn(t, dir, "d") {
		t.Fatal("reverting the revert did not bring d back")
	}
}

func TestRestoreRefusesWhatItCannotDo(t *testing.T) {
	s, _ := historyScene(t)
	first := newest(t, s).Commit
	cases := []struct {
		r       RestoreRequest
		pointer string
	}{
		{RestoreRequest{Name: "h", From: "01NOPE"}, "/from"},
		{RestoreRequest{Name: "h", From: first, Mode: "undo"}, "/mode"},
		{RestoreRequest{Name: "h", From: first, IDs: []string{"zzz"}}, "/ids/0"},
	}
	before := fileBytes(t, s.store.st.(*store.Store).Dir(), "h")
	for _, c := range cases {
		_, err := s.Restore(ctx, c.r)
		var se *sceneerr.Error
		if !errors.As(err, &se) || se.Details["pointer"] != c.pointer {
			t.Errorf("%+v: %v, want pointer %s", c.r, err, c.pointer)
		}
	}
	if string(fileBytes(t, s.store.st.(*store.Store).Dir(), "h")) != string(before) {
		t.Fatal("a refused restore changed the scene")
	}
}

// TestMembersInAnotherOrderAreNoChange: the editor writes elements out
// with their members in its own order; that is not a change to them, so
// the journal does not list them and a revert of the agent's commit is
// not blocked by it.
func TestMembersInAnotherOrderAreNoChange(t *testing.T) {
	s, dir := historyScene(t)
	created := newest(t, s).Commit
	read, err := s.Read(ctx, ReadRequest{Name: "h"})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any // encoding/json sorts the members
	if err := json.Unmarshal(read.Scene, &m); err != nil {
		t.Fatal(err)
	}
	resorted, _ := json.Marshal(m)
	if _, err := s.Save(ctx, SaveRequest{Name: "h", Scene: resorted, ExpectedRevision: read.Revision}); err != nil {
		t.Fatal(err)
	}
	if row := newest(t, s); row.Revision != 2 || row.Summary != "nothing changed" || len(row.Updated) != 0 {
		t.Fatalf("the re-serialized save's entry = %+v", row)
	}
	env, err := s.Restore(ctx, RestoreRequest{Name: "h", From: created})
	if err != nil {
		t.Fatal(err)
	}
	if len(env.Collateral) != 0 || len(env.Changed.Deleted) != 3 || !isDeletedIn(t, dir, "a") {
		t.Fatalf("revert of the create after the save: %+v", env)
	}
}
