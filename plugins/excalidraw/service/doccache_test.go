package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// TestCachedDocumentsWriteWhatParsingWrites: the same writes, in the same
// order, on a service that keeps its document cache and on one opened
// afresh before every write (nothing cached), store the same scene at
// every step (but for the random draws, versionNonce and seed: a service
// opened afresh starts its random source over).
func TestCachedDocumentsWriteWhatParsingWrites(t *testing.T) {
	warm, warmDir := newTestService(t, scene.Limits{})
	coldDir := filepath.Join(t.TempDir(), "drawings")
	pcg := rand.NewPCG(1, 2)
	r := rand.New(pcg)
	ops := []func(s *Service, rev int64) error{
		func(s *Service, rev int64) error {
			_, err := s.Apply(ctx, ApplyRequest{Name: "c", ExpectedRevision: rev, Operations: raws(fmt.Sprintf(
				`{"op":"update","id":"b%d","patch":{"x":%d,"strokeColor":"#e03131"}}`, r.IntN(20), r.IntN(500)))})
			return err
		},
		func(s *Service, rev int64) error {
			_, err := s.Write(ctx, WriteRequest{Name: "c"}, moveOne(fmt.Sprint("b", r.IntN(20)), float64(r.IntN(50))))
			return err
		},
		func(s *Service, rev int64) error {
			_, err := s.Apply(ctx, ApplyRequest{Name: "c", ExpectedRevision: rev, Operations: raws(fmt.Sprintf(
				`{"op":"add","element":{"type":"rectangle","id":"n%d","x":%d,"y":900,"width":40,"height":40}}`, rev, r.IntN(900)))})
			return err
		},
		func(s *Service, rev int64) error {
			_, err := s.Apply(ctx, ApplyRequest{Name: "c", ExpectedRevision: rev, Operations: raws(fmt.Sprintf(`{"op":"delete","id":"b%d"}`, 20+r.IntN(5)))})
			if sceneerr.CodeOf(err) == sceneerr.NotFound { // deleted at an earlier step
				return nil
			}
			return err
		},
	}
	create := func(s *Service) {
		if _, err := s.Create(ctx, CreateRequest{Name: "c", Elements: elementInputs("b", 30)}); err != nil {
			t.Fatal(err)
		}
	}
	create(warm)
	cold := openAt(t, coldDir, scene.Limits{})
	create(cold)
	seq := make([]int, 40)
	for i := range seq {
		seq[i] = r.IntN(len(ops))
	}
	for step, k := range seq {
		for _, s := range []*Service{warm, cold} {
			if s == cold {
				cold.Close()
				cold = openAt(t, coldDir, scene.Limits{})
				s = cold
			}
			head, err := s.Head(ctx, "c")
			if err != nil {
				t.Fatal(err)
			}
			state := *pcg
			if err := ops[k](s, head.Revision); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			if s == warm {
				*pcg = state // the cold service draws the same values
			}
		}
		if w, c := masked(t, fileBytes(t, warmDir, "c")), masked(t, fileBytes(t, coldDir, "c")); !bytes.Equal(w, c) {
			t.Fatalf("step %d (op %d): the files differ:\n%s\n%s", step, k, w, c)
		}
	}
}

// masked is a scene file without its elements' random draws.
func masked(t *testing.T, data []byte) []byte {
	t.Helper()
	doc, err := scene.Parse(data, scene.Limits{}.Effective())
	if err != nil {
		t.Fatal(err)
	}
	for _, el := range doc.Elements() {
		el.Delete("versionNonce")
		el.Delete("seed")
	}
	out, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The cache keeps the newest entries within its bounds, by count and by
// bytes, and always the newest one even when it alone is over them.
func TestDocCacheBounds(t *testing.T) {
	c := &docCache{maxEntries: 3, maxBytes: 100}
	data := func(i, n int) []byte { return bytes.Repeat([]byte{byte('a' + i)}, n) }
	for i := range 5 {
		c.vouch(data(i, 10), i)
	}
	for i := range 5 {
		if _, ok := c.counted(data(i, 10)); ok != (i >= 2) {
			t.Errorf("entry %d kept: %v, want only the newest three", i, ok)
		}
	}
	c.vouch(data(5, 95), 5) // 95 bytes: the 10-byte ones must make room
	if _, ok := c.counted(data(4, 10)); ok {
		t.Error("kept past the byte bound")
	}
	c.vouch(data(6, 500), 6)
	if n, ok := c.counted(data(6, 500)); !ok || n != 6 {
		t.Error("the newest entry was dropped for being large")
	}
	if c.bytes != 500 || len(c.entries) != 1 {
		t.Errorf("%d entries of %d bytes, want the one of 500", len(c.entries), c.bytes)
	}
}

// A line of writes on one scene keeps its last two generations in the
// cache, not one entry per write up to the cache's bounds.
func TestDocCacheKeepsTwoGenerationsOfALine(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "g", Elements: raws(rects(3)...)}); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		h, err := s.Head(ctx, "g")
		if err != nil {
			t.Fatal(err)
		}
		op := json.RawMessage(fmt.Sprintf(`{"op":"update","id":"r0","patch":{"x":%d}}`, i+1))
		if _, err := s.Apply(ctx, ApplyRequest{Name: "g", ExpectedRevision: h.Revision, Operations: []json.RawMessage{op}}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(s.docs.entries); n > 3 {
		t.Fatalf("%d cache entries after 8 writes of one scene, want the last generations only", n)
	}
	if _, ok := s.docs.lookup(storedBytes(t, s, "g")); !ok {
		t.Fatal("the current generation was dropped")
	}
}

// vouch records that data is a valid scene of count elements, as finish
// does for what it encodes.
func (c *docCache) vouch(data []byte, count int) {
	c.with(data, func(e *docEntry) { e.count, e.vouched = count, true })
}

// codec is the store codec that answers from c.
func (c *docCache) codec() *storeCodec { return &storeCodec{cache: c} }
