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
func bench1000(b *testing.B) (*Service, string) {
	s, dir := newTestService(b, scene.Limits{})
	inputs := make([]json.RawMessage, 1000)
	for i := range inputs {
		inputs[i] = json.RawMessage(fmt.Sprintf(`{"type":"rectangle","id":"r%d","x":%d,"y":%d,"width":80,"height":40}`, i, (i%40)*100, (i/40)*60))
	}
	if _, err := s.Create(ctx, CreateRequest{Name: "big", Elements: inputs}); err != nil {
		b.Fatal(err)
	}
	return s, dir
}

// BenchmarkApplyOne1000 is one update operation on a 1,000-element scene
// through Service.Apply: parse, edit, normalize, validate, encode, commit.
func BenchmarkApplyOne1000(b *testing.B) {
	s, _ := bench1000(b)
	rev := int64(1)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		res, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: rev,
			Operations: []json.RawMessage{json.RawMessage(fmt.Sprintf(`{"op":"update","id":"r500","patch":{"x":%d}}`, i%2))}})
		if err != nil {
			b.Fatal(err)
		}
		rev = res.Revision
	}
}

// BenchmarkStoreSaveSameChange saves the bytes such an Apply produces
// directly through the store (codec inspection, backup, fsync, verify),
// so the ratio to BenchmarkApplyOne1000 is the service's own cost. It
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
