package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// realScene builds a document of n real elements (shapes with labels and
// arrows between them) the way agents create them.
func realScene(tb testing.TB, n int, tag string) []byte {
	tb.Helper()
	inputs := make([]json.RawMessage, 0, n)
	for i := 0; len(inputs) < n; i++ {
		id := fmt.Sprintf("s%d", i)
		inputs = append(inputs, json.RawMessage(fmt.Sprintf(`{"type":"rectangle","id":%q,"x":%d,"y":%d,"width":160,"height":80,"label":{"text":"%s node %d"}}`, id, (i%40)*200, (i/40)*150, tag, i)))
		if i > 0 && len(inputs) < n-1 {
			inputs = append(inputs, json.RawMessage(fmt.Sprintf(`{"type":"arrow","startElementId":"s%d","endElementId":%q}`, i-1, id)))
		}
	}
	res, err := build.Build(inputs, build.Context{Rand: rand.New(rand.NewPCG(1, 2)), Now: func() time.Time { return time.Unix(1_800_000_000, 0) }})
	if err != nil {
		tb.Fatal(err)
	}
	d := scene.NewDocument()
	d.SetElements(res.Elements)
	b, err := d.Marshal()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// BenchmarkSaveRealScene is the whole save path with the real scene codec
// (read-back parsed and counted) on a 1,000-element agent-built scene;
// BenchmarkSaveRealSceneBareWrite is temp file + fsync + rename + dir fsync
// of the same bytes, in the same run, for the ratio.
func BenchmarkSaveRealScene(b *testing.B) {
	docs := [2][]byte{realScene(b, 1000, "a"), realScene(b, 1000, "b")}
	s, err := store.Open(store.Options{Dir: b.TempDir(), Codec: scene.Codec{}, KeepBackups: 4})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.Create(ctx, store.CreateRequest{Name: "bench", Data: docs[0], Actor: store.ActorAgent}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(docs[0])))
	rev := int64(1)
	for b.Loop() {
		res, err := s.Save(ctx, store.SaveRequest{Name: "bench", ExpectedRevision: rev, Data: docs[rev%2], Actor: store.ActorAgent})
		if err != nil {
			b.Fatal(err)
		}
		rev = res.Revision
	}
}

func BenchmarkSaveRealSceneBareWrite(b *testing.B) {
	docs := [2][]byte{realScene(b, 1000, "a"), realScene(b, 1000, "b")}
	dir := b.TempDir()
	target := filepath.Join(dir, "bench.excalidraw")
	b.SetBytes(int64(len(docs[0])))
	i := 0
	for b.Loop() {
		f, err := os.CreateTemp(dir, ".bench.tmp-*")
		if err != nil {
			b.Fatal(err)
		}
		_, err = f.Write(docs[i%2])
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.Name(), target)
		}
		if err != nil {
			b.Fatal(err)
		}
		d, err := os.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		_ = d.Sync()
		d.Close()
		i++
	}
}

func TestRealSceneIsValid(t *testing.T) {
	data := realScene(t, 200, "t")
	rep := scene.ValidateBytes(data, scene.Limits{})
	if !rep.Valid {
		t.Fatalf("agent-built scene invalid: %+v", rep.Errors())
	}
	if w := len(rep.Diagnostics); w != 0 {
		t.Fatalf("agent-built scene has %d diagnostics, first %+v", w, rep.Diagnostics[0])
	}
}
