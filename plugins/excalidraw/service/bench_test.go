package service

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// bench1000 creates a 1,000-element scene and returns the service and
// its directory.
func bench1000(b *testing.B) (*Service, string) { return benchN(b, 1000) }

// BenchmarkStoreSaveSameChange saves the bytes such an Apply produces
// directly through the store (codec inspection, backup, fsync, verify),
// so the ratio to BenchmarkApplyOne/1000 is the service's own cost. It
// alternates two such results, since saving the current bytes again
// writes nothing.
func BenchmarkStoreSaveSameChange(b *testing.B) {
	s, dir := bench1000(b)
	var docs [2][]byte
	for i := range docs {
		if _, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: int64(i + 1),
			Operations: []json.RawMessage{json.RawMessage(fmt.Sprintf(`{"op":"update","id":"r500","patch":{"x":%d}}`, i+1))}}); err != nil {
			b.Fatal(err)
		}
		docs[i] = fileBytes(b, dir, "big")
	}
	s.Close()
	st, err := store.Open(store.Options{Dir: filepath.Clean(dir), Codec: scene.Codec{}})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	rev := int64(3)
	b.ResetTimer()
	for b.Loop() {
		res, err := st.Save(ctx, store.SaveRequest{Name: "big", ExpectedRevision: rev, Data: docs[(rev+1)%2], Actor: store.ActorAgent}) // the other one
		if err != nil {
			b.Fatal(err)
		}
		if res.Unchanged {
			b.Fatal("benchmarked an unchanged save")
		}
		rev = res.Revision
	}
}
