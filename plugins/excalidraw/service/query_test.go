package service

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// TestQueryAfterARevision: `after` selects the elements that changed
// since a revision (compared with its backup), and a revision whose
// backup is not kept is not_found at /after.
func TestQueryAfterARevision(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
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
	ids := func(after int64) string {
		t.Helper()
		res, err := s.Query(ctx, QueryRequest{Name: "q", After: &after, Fields: []string{"id"}})
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
	if got := ids(1); got != "b,d" {
		t.Errorf("changed after revision 1: %q, want b,d", got)
	}
	if got := ids(2); got != "d" {
		t.Errorf("changed after revision 2: %q, want d", got)
	}
	if got := ids(3); got != "" {
		t.Errorf("changed after the current revision: %q", got)
	}
	after := int64(0)
	_, err := s.Query(ctx, QueryRequest{Name: "q", After: &after})
	if se := wantCode(t, err, sceneerr.NotFound); se.Details["pointer"] != "/after" {
		t.Errorf("an unkept revision: %v", se.Details)
	}
	// With a target too: AND.
	one := int64(1)
	res, err := s.Query(ctx, QueryRequest{Name: "q", After: &one, Target: query.Target{Types: []string{"ellipse"}}})
	if err != nil || res.Count != 1 {
		t.Fatalf("after + type: %v %v", res, err)
	}
}
