package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// labelled1000 is a service holding "big": 500 labelled boxes, 1,000
// elements.
func labelled1000(b *testing.B) *Service {
	s, _ := newTestService(b, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "big", Elements: elementInputs("b", 500)}); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkZeroHitReads are reads of a 1,000-element scene that match
// nothing: a summary of a type it has none of, and queries whose target
// selects nothing (by type, by text). BenchmarkZeroHitReads/store-read
// is the store's read of the same scene alone, their floor.
func BenchmarkZeroHitReads(b *testing.B) {
	s := labelled1000(b)
	run := func(name string, fn func() (int, error)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n, err := fn()
				if err != nil {
					b.Fatal(err)
				}
				if n != 0 {
					b.Fatalf("%d hits", n)
				}
			}
		})
	}
	run("store-read", func() (int, error) {
		_, err := s.store.Read(ctx, "big")
		return 0, err
	})
	run("summary", func() (int, error) {
		res, err := s.Read(ctx, ReadRequest{Name: "big", Include: IncludeSummary, ElementType: "frame"})
		if err != nil {
			return 0, err
		}
		return len(res.Summary.Elements), nil
	})
	for _, q := range []struct {
		name string
		t    query.Target
	}{
		{"query-type", query.Target{Types: []string{"frame"}}},
		{"query-text", query.Target{TextRegex: "^no such text$"}},
	} {
		for _, format := range []string{FormatRows, FormatGraph} {
			run(q.name+"-"+format, func() (int, error) {
				res, err := s.Query(ctx, QueryRequest{Name: "big", Target: q.t, Format: format, Aggregate: "bounds"})
				if err != nil {
					return 0, err
				}
				return res.Count, nil
			})
		}
	}
}
