package service

import (
	"fmt"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// racingMove is a move whose plan is made once after another writer
// committed: the commit lands between the write's reading of the history
// and its write.
type racingMove struct {
	MoveElements
	race func()
}

func (e *racingMove) Plan(at string) Plan {
	if e.race != nil {
		e.race()
		e.race = nil
	}
	return e.MoveElements.Plan(at)
}

// A write selecting by after runs on the revision it read the history
// at: a commit landing in between makes it read again, so what that
// commit changed is selected too; a fence the caller gave stays the
// caller's (a conflict, not a second reading).
func TestWriteAfterReadsAgainOnACommitInBetween(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "w", Elements: raws(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":50,"height":50}`,
		`{"type":"rectangle","id":"b","x":100,"y":0,"width":50,"height":50}`,
	)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, ApplyRequest{Name: "w", ExpectedRevision: 1, Operations: raws(`{"op":"update","id":"a","patch":{"x":10}}`)}); err != nil {
		t.Fatal(err)
	}
	one := int64(1)
	dx := 5.0
	move := func(fence *int64, at int64) (*Envelope, error) {
		e := &racingMove{MoveElements: MoveElements{Selection: engine.Selection{Target: &query.Target{After: &one}}, DX: &dx}}
		e.race = func() {
			if _, err := s.Apply(ctx, ApplyRequest{Name: "w", ExpectedRevision: at, Operations: raws(fmt.Sprintf(`{"op":"update","id":"b","patch":{"y":%d}}`, 10*at))}); err != nil {
				t.Fatal(err)
			}
		}
		return s.Edit(ctx, WriteRequest{Name: "w", ExpectedRevision: fence}, e)
	}
	env, err := move(nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := env.Changed.Updated; !slices.Equal(got, []string{"a", "b"}) || env.Revision != 4 {
		t.Errorf("moved %v at revision %d; want a and b (changed after 1, b by the commit in between) at 4", got, env.Revision)
	}
	four := int64(4)
	_, err = move(&four, 4)
	wantCode(t, err, sceneerr.RevisionConflict)
}

func TestPersistingOf(t *testing.T) {
	var f []lint.Finding
	for i := range 25 {
		f = append(f, lint.Finding{Code: "hint_" + string(rune('a'+i)), Severity: lint.Info, IDs: []string{"x"}})
	}
	f = append(f, lint.Finding{Code: "overlap", Severity: lint.Warning, IDs: []string{"a", "b"}},
		lint.Finding{Code: "dangling", Severity: lint.Error, IDs: []string{"1", "2", "3", "4", "5", "6"}})
	p := persistingOf(f)
	if p.Total != 27 || len(p.Findings) != maxLintShown {
		t.Fatalf("total %d, %d shown", p.Total, len(p.Findings))
	}
	if want := []string{"dangling:1,2,3,4,+2", "overlap:a,b", "hint_a:x"}; !slices.Equal(p.Findings[:3], want) {
		t.Errorf("first shown %v, want %v (errors first, then warnings, ids capped)", p.Findings[:3], want)
	}
	if p := persistingOf(nil); p.Total != 0 || p.Findings == nil {
		t.Errorf("none: %+v (findings must be [] in JSON)", p)
	}
}

func TestOptionsIgnored(t *testing.T) {
	if got := (WriteOptions{Verify: true, Note: "n"}).ignored(); len(got) != 0 {
		t.Errorf("a real write ignores %v", got)
	}
	got := (WriteOptions{DryRun: true, Verify: true, Note: "n", Snap: 10}).ignored()
	if len(got) != 2 || got[0].Field != "/options/verify" || got[1].Field != "/options/note" {
		t.Errorf("a dry run with verify and a note: %v", got)
	}
}
