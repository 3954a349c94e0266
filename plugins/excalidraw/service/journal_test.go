package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// TestVouchedCountsAreTheParsersCounts: the store takes the element count
// of bytes the service encoded from the service (it does not parse them
// again); after every kind of write, the count the store recorded must be
// what a full parse of the file on disk says.
func TestVouchedCountsAreTheParsersCounts(t *testing.T) {
	s, dir := historyScene(t)
	applyOps(t, s, `{"op":"delete","id":"b"}`, `{"op":"add","element":{"type":"text","id":"t","x":0,"y":200,"text":"hello"}}`)
	applyOps(t, s, `{"op":"add","element":{"type":"rectangle","id":"box","x":0,"y":300,"width":90,"height":40,"label":{"text":"label"}}}`)
	read, err := s.Read(ctx, ReadRequest{Name: "h"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(ctx, SaveRequest{Name: "h", Scene: read.Scene, ExpectedRevision: read.Revision, Force: true}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"h"} {
		head, err := s.Head(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		n, err := scene.Codec{}.Inspect(fileBytes(t, dir, name))
		if err != nil || n != head.ElementCount {
			t.Fatalf("%s: the store recorded %d elements, a parse of the file finds %d (%v)", name, head.ElementCount, n, err)
		}
	}
}

// TestUnvouchedBytesAreParsed: bytes the service did not produce get the
// full inspection (a document that is no scene is refused).
func TestUnvouchedBytesAreParsed(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	codec := &storeCodec{Codec: scene.Codec{}, cache: s.docs}
	if _, err := codec.Inspect([]byte(`{"elements":"no"}`)); err == nil {
		t.Fatal("inspect accepted a document that is no scene")
	}
	s.docs.vouch([]byte(`{"type":"excalidraw","elements":[ ]}`), 0)
	if n, err := codec.Inspect([]byte(`{"type":"excalidraw","elements":[1]}`)); err == nil {
		t.Fatalf("other bytes of the same length took the vouched answer %d", n)
	}
}
