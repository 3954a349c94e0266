package service

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Summary reads, queries and validate_scene's lint read the cached
// document itself instead of a clone: they, and many of them at once
// (run with -race), must leave it exactly as it was.
func TestReadsLeaveTheCachedDocumentAlone(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "big", Elements: elementInputs("b", 50)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: 1,
		Operations: []json.RawMessage{json.RawMessage(`{"op":"update","id":"b3","patch":{"x":7}}`)}}); err != nil {
		t.Fatal(err)
	}
	data := fileBytes(t, dir, "big")
	doc, err := s.viewStored(data)
	if err != nil {
		t.Fatal(err)
	}
	before, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	after := int64(1)
	reads := []func() error{
		func() error {
			_, err := s.Read(ctx, ReadRequest{Name: "big", Include: IncludeSummary})
			return err
		},
		func() error {
			_, err := s.Read(ctx, ReadRequest{Name: "big", Include: IncludeSummary, ElementType: "text"})
			return err
		},
		func() error {
			_, err := s.ValidateScene(ctx, ValidateStoredRequest{Name: "big"})
			return err
		},
	}
	for _, format := range []string{FormatRows, FormatMD, FormatGraph} {
		for _, tg := range []query.Target{{}, {Role: query.RoleContainer}, {TextContains: "box 1"}, {Types: []string{"frame"}}} {
			reads = append(reads, func() error {
				_, err := s.Query(ctx, QueryRequest{Name: "big", Target: tg, Format: format, Aggregate: "bounds"})
				return err
			}, func() error {
				_, err := s.Query(ctx, QueryRequest{Name: "big", Target: tg, Format: format, After: &after})
				return err
			})
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(reads))
	for range 4 {
		for _, read := range reads {
			wg.Go(func() { errs <- read() })
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	again, err := s.viewStored(data)
	if err != nil {
		t.Fatal(err)
	}
	if again != doc {
		t.Fatal("the cached document was replaced: reads parsed the scene again")
	}
	now, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, now) {
		t.Fatal("reads changed the cached document")
	}
}

// Reads that match nothing answer with empty, well-formed results.
func TestZeroHitReads(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "big", Elements: elementInputs("b", 20)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: 1,
		Operations: []json.RawMessage{json.RawMessage(`{"op":"delete","id":"b0"}`)}}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Read(ctx, ReadRequest{Name: "big", Include: IncludeSummary, ElementType: "frame"})
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Summary
	if sum == nil || sum.Elements == nil || len(sum.Elements) != 0 || sum.FileIDs == nil || sum.DeletedCount != 2 {
		t.Fatalf("summary = %+v", sum)
	}
	for _, format := range []string{FormatRows, FormatMD, FormatGraph} {
		q, err := s.Query(ctx, QueryRequest{Name: "big", Target: query.Target{TextRegex: "^nothing$"}, Format: format, Aggregate: "bounds"})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(q)
		if q.Count != 0 || q.Bounds != nil || q.NextCursor != "" {
			t.Fatalf("%s: %s", format, out)
		}
		switch format {
		case FormatRows:
			if string(q.Rows) != "[]" {
				t.Fatalf("rows: %s", out)
			}
		case FormatGraph:
			if g := q.Graph; g == nil || g.Nodes == nil || len(g.Nodes)+len(g.Edges)+len(g.Unbound)+len(g.Isolated) != 0 {
				t.Fatalf("graph: %s", out)
			}
		}
	}
}
