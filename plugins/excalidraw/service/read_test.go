package service

import (
	"bytes"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestReadFullAndSummary(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	w := createFlow(t, s, "flow")
	full, err := s.Read(ctx, ReadRequest{Name: "flow"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(full.Scene, fileBytes(t, dir, "flow")) || full.SHA256 != w.SHA256 || full.Revision != 1 || full.UpdatedBy != "agent" {
		t.Fatalf("full read %+v", full)
	}
	sum, err := s.Read(ctx, ReadRequest{Name: "flow", Include: IncludeSummary})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Scene != nil || len(sum.Summary.Elements) != 4 {
		t.Fatalf("summary %+v", sum.Summary)
	}
	texts, err := s.Read(ctx, ReadRequest{Name: "flow", Include: IncludeSummary, ElementType: "text"})
	if err != nil {
		t.Fatal(err)
	}
	if len(texts.Summary.Elements) != 1 || texts.Summary.Elements[0].Text != "Start" {
		t.Fatalf("text filter %+v", texts.Summary)
	}
	for _, e := range sum.Summary.Elements {
		if e.X != round2(e.X) || e.Width != round2(e.Width) {
			t.Fatalf("not rounded: %+v", e)
		}
	}
}

func TestReadErrors(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	_, err := s.Read(ctx, ReadRequest{Name: "missing"})
	wantCode(t, err, sceneerr.NotFound)
	_, err = s.Read(ctx, ReadRequest{Name: "missing", Include: "everything"})
	wantCode(t, err, sceneerr.InvalidOperation)
	_, err = s.Apply(ctx, ApplyRequest{Name: "missing", Operations: raws(`{"op":"delete","id":"x"}`)})
	wantCode(t, err, sceneerr.NotFound)
}
