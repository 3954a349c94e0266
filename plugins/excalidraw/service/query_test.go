package service

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// TestQueryAfterARevision: `after` selects the elements some commit
// after a revision changed, read from the journal: an element changed
// and changed back counts, revision 0 is before the scene existed, a
// revision the scene has not reached is refused; without a journal the
// backup of the revision is compared instead, and a revision with
// neither is not_found at /after.
func TestQueryAfterARevision(t *testing.T) {
	for _, journal := range []bool{true, false} {
		s, err := New(Config{DrawingsDir: t.TempDir(), Journal: store.JournalOptions{Disabled: !journal}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if _, err := s.Create(ctx, CreateRequest{Name: "q", Elements: raws(
			`{"type":"rectangle","id":"a","x":0,"y":0,"width":50,"height":50}`,
			`{"type":"rectangle","id":"b","x":100,"y":0,"width":50,"height":50}`,
			`{"type":"rectangle","id":"c","x":200,"y":0,"width":50,"height":50}`,
		)}); err != nil {
			t.Fatal(err)
		}
		apply := func(rev int64, op string) {
			t.Helper()
			if _, err := s.Apply(ctx, ApplyRequest{Name: "q", ExpectedRevision: rev, Operations: raws(op)}); err != nil {
				t.Fatal(err)
			}
		}
		apply(1, `{"op":"update","id":"b","patch":{"x":110}}`)
		apply(2, `{"op":"add","element":{"type":"ellipse","id":"d","x":0,"y":100,"width":50,"height":50}}`)
		apply(3, `{"op":"update","id":"c","patch":{"x":210}}`)
		apply(4, `{"op":"update","id":"c","patch":{"x":200}}`)
		ids := func(after int64) string {
			t.Helper()
			res, err := s.Query(ctx, QueryRequest{Name: "q", Target: query.Target{After: &after}, Fields: []string{"id"}})
			if err != nil {
				t.Fatal(err)
			}
			var rows []map[string]any
			if err := json.Unmarshal(res.Rows, &rows); err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, r := range rows {
				out = append(out, r["id"].(string))
			}
			return strings.Join(out, ",")
		}
		// c moved and moved back: it was changed (its version says so in
		// the backup's comparison too).
		want := map[int64]string{1: "b,c,d", 2: "c,d", 4: "c", 5: ""}
		for after, w := range want {
			if got := ids(after); got != w {
				t.Errorf("journal %v: changed after revision %d: %q, want %q", journal, after, got, w)
			}
		}
		zero := int64(0)
		_, err = s.Query(ctx, QueryRequest{Name: "q", Target: query.Target{After: &zero}})
		if journal {
			if got := ids(0); got != "a,b,c,d" || err != nil {
				t.Errorf("after revision 0: %q %v, want every element", got, err)
			}
		} else if se := wantCode(t, err, sceneerr.NotFound); se.Details["pointer"] != "/target/after" {
			t.Errorf("an unkept revision: %v", se.Details)
		}
		six := int64(6)
		_, err = s.Query(ctx, QueryRequest{Name: "q", Target: query.Target{After: &six}})
		if se := wantCode(t, err, sceneerr.InvalidOperation); se.Details["pointer"] != "/target/after" {
			t.Errorf("a revision to come: %v", se.Details)
		}
		// The older spelling beside the target, with a target too: AND;
		// both spellings at once are refused.
		one := int64(1)
		res, err := s.Query(ctx, QueryRequest{Name: "q", After: &one, Target: query.Target{Types: []string{"ellipse"}}})
		if err != nil || res.Count != 1 {
			t.Fatalf("after + type: %v %v", res, err)
		}
		_, err = s.Query(ctx, QueryRequest{Name: "q", After: &one, Target: query.Target{After: &one}})
		if se := wantCode(t, err, sceneerr.InvalidOperation); se.Details["pointer"] != "/after" {
			t.Errorf("after twice: %v", se.Details)
		}
	}
}
