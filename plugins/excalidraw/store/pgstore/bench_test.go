package pgstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
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

// sceneOf builds a document of n real elements (labelled shapes, two
// elements each, with arrows between them) and returns it with a function that makes the
// next one-element change of it: element k moved by one step.
func sceneOf(b *testing.B, n int) (*scene.Document, func(i int) []byte) {
	b.Helper()
	inputs := make([]json.RawMessage, 0, n)
	for i := 0; len(inputs) < n*2/3; i++ {
		id := fmt.Sprintf("s%d", i)
		inputs = append(inputs, json.RawMessage(fmt.Sprintf(`{"type":"rectangle","id":%q,"x":%d,"y":%d,"width":160,"height":80,"label":{"text":"node %d"}}`, id, (i%40)*200, (i/40)*150, i)))
		if i > 0 && len(inputs) < n*2/3-1 {
			inputs = append(inputs, json.RawMessage(fmt.Sprintf(`{"type":"arrow","startElementId":"s%d","endElementId":%q}`, i-1, id)))
		}
	}
	res, err := build.Build(inputs, build.Context{Rand: mrand.New(mrand.NewPCG(1, 2)), Now: func() time.Time { return time.Unix(1_800_000_000, 0) }})
	if err != nil {
		b.Fatal(err)
	}
	d := scene.NewDocument()
	d.SetElements(res.Elements)
	next := func(i int) []byte {
		els := d.Elements()
		el := els[(i*7919)%len(els)]
		x, _ := el.Get("x")
		f, _ := x.(float64)
		el.Set("x", f+1)
		el.Set("version", float64(i+2))
		out, err := scene.Codec{}.Encode(d)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	return d, next
}

// BenchmarkOneElementCommit is a one-element save on a scene of 1,000
// (and 10,000) real elements, each save moving another element, on the
// file store and on PostgreSQL in the same run: each iteration is one
// round of saveRound saves on each (which goes first alternates), and
// the metrics are pg/fs of the rounds' mean save time (min, median,
// max), the same for a Read of the head by the node that wrote it, the
// mean time of a Read by another node (its copy a round behind) and by
// one that keeps no copy, and the WAL PostgreSQL wrote per commit
// against the bytes of the file the file store wrote. Run it with
// DSH_PG_FSYNC=on (durable commits, as the file store's fsync):
//
//	DSH_PG_FSYNC=on go test -run x -bench OneElementCommit -benchtime 8x ./plugins/excalidraw/store/pgstore
func BenchmarkOneElementCommit(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("elements=%d", n), func(b *testing.B) { saveVsFile(b, n) })
	}
}

// saveRound is how many saves each store makes in a round.
const saveRound = 20

func saveVsFile(b *testing.B, n int) {
	ctx := context.Background()
	_, next := sceneOf(b, n)
	first := next(0)
	fs, err := store.Open(store.Options{Dir: filepath.Join(b.TempDir(), "drawings"), Codec: scene.Codec{}})
	if err != nil {
		b.Fatal(err)
	}
	defer fs.Close()
	dsn := pgtest.DSN(b)
	pool := openPool(b, dsn)
	pg := openStore(b, pool, Options{Codec: scene.Codec{}})
	other := openStore(b, pool, Options{Codec: scene.Codec{}})
	cold := openStore(b, pool, Options{Codec: scene.Codec{}, CacheBytes: -1})
	stores := []store.Backend{fs, pg}
	revs := []int64{0, 0}
	for k, s := range stores {
		res, err := s.Create(ctx, store.CreateRequest{Name: "plan", Data: first, Actor: store.ActorAgent})
		if err != nil {
			b.Fatal(err)
		}
		revs[k] = res.Revision
	}
	walBytes := func() int64 {
		var w int64
		if err := pool.QueryRow(ctx, `SELECT wal_bytes::bigint FROM pg_stat_wal`).Scan(&w); err != nil {
			b.Fatal(err)
		}
		return w
	}
	var saveRatios, readRatios []float64
	var wal, fileBytes, saves int64
	var pgRead, otherRead, coldRead time.Duration
	i := 1
	for round := 0; b.Loop(); round++ {
		docs := make([][]byte, saveRound)
		for j := range docs {
			docs[j] = next(i)
			i++
		}
		var took, read [2]time.Duration
		for o := range 2 {
			k := (o + round) % 2
			s := stores[k]
			w0 := walBytes()
			for _, doc := range docs {
				t0 := time.Now()
				res, err := s.Save(ctx, store.SaveRequest{Name: "plan", ExpectedRevision: revs[k], Data: doc, Actor: store.ActorUI})
				took[k] += time.Since(t0)
				if err != nil {
					b.Fatal(err)
				}
				revs[k] = res.Revision
			}
			if k == 1 {
				wal += walBytes() - w0
				saves += saveRound
			} else {
				for _, doc := range docs {
					fileBytes += int64(len(doc))
				}
			}
			for range saveRound {
				t0 := time.Now()
				sc, err := s.Read(ctx, "plan")
				read[k] += time.Since(t0)
				if err != nil || !bytes.Equal(sc.Data, docs[len(docs)-1]) {
					b.Fatalf("read back: %v", err)
				}
			}
		}
		for _, r := range []struct {
			s   *Store
			sum *time.Duration
		}{{other, &otherRead}, {cold, &coldRead}} {
			t0 := time.Now()
			sc, err := r.s.Read(ctx, "plan")
			*r.sum += time.Since(t0)
			if err != nil || !bytes.Equal(sc.Data, docs[len(docs)-1]) {
				b.Fatalf("read back on another node: %v", err)
			}
		}
		saveRatios = append(saveRatios, float64(took[1])/float64(took[0]))
		readRatios = append(readRatios, float64(read[1])/float64(read[0]))
		pgRead += read[1]
	}
	report := func(name string, r []float64) {
		slices.Sort(r)
		b.ReportMetric(r[0], name+"-min")
		b.ReportMetric(r[len(r)/2], name+"-median")
		b.ReportMetric(r[len(r)-1], name+"-max")
	}
	report("save-pg/fs", saveRatios)
	report("read-pg/fs", readRatios)
	b.ReportMetric(float64(pgRead.Microseconds())/float64(saves), "pg-read-µs")
	b.ReportMetric(float64(otherRead.Microseconds())/float64(len(saveRatios)), "pg-other-node-read-µs")
	b.ReportMetric(float64(coldRead.Microseconds())/float64(len(saveRatios)), "pg-cold-read-µs")
	b.ReportMetric(float64(wal)/float64(saves), "pg-WAL-B/commit")
	b.ReportMetric(float64(fileBytes)/float64(saves), "fs-file-B/commit")
}
