package pgstore

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

// BenchmarkSave is a one-element save over the expected revision, on the
// file store and on PostgreSQL, in the same run: pg/fs is the ratio.
// (The throwaway cluster runs with fsync off; a real server's durable
// commit costs more.)
func BenchmarkSave(b *testing.B) {
	ctx := context.Background()
	backends := map[string]func(b *testing.B) store.Backend{
		"fs": func(b *testing.B) store.Backend {
			s, err := store.Open(store.Options{Dir: filepath.Join(b.TempDir(), "drawings"), Codec: storetest.Codec{}})
			if err != nil {
				b.Fatal(err)
			}
			return s
		},
		"pg": func(b *testing.B) store.Backend {
			return openStore(b, openPool(b, pgtest.DSN(b)), Options{})
		},
	}
	for _, kind := range []string{"fs", "pg"} {
		b.Run(kind, func(b *testing.B) {
			s := backends[kind](b)
			defer s.Close()
			docs := [][]byte{storetest.Doc(1, "a"), storetest.Doc(1, "b")}
			res, err := s.Create(ctx, store.CreateRequest{Name: "plan", Data: docs[0], Actor: store.ActorAgent})
			if err != nil {
				b.Fatal(err)
			}
			rev := res.Revision
			for i := 0; b.Loop(); i++ {
				res, err := s.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: rev, Data: docs[(i+1)%2], Actor: store.ActorUI})
				if err != nil {
					b.Fatal(err)
				}
				rev = res.Revision
			}
		})
	}
}
