package storetest

import (
	"fmt"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// history: many one-element commits on a scene of some size (saves in
// turn at the start, the middle and the end, an element added by
// Update, one removed by a forced save over a stale revision, an
// unchanged save between), and every revision reads back byte for byte,
// the current one by Read and each superseded one by ReadRevision,
// however the backend stores them.
func history(t *testing.T, b store.Backend) {
	const n, commits = 120, 90
	els := make([]string, n)
	for i := range els {
		els[i] = El(fmt.Sprintf("e%d", i), i*10, "a")
	}
	docs := map[int64][]byte{1: DocOf(els...)}
	rev := mustCreate(t, b, "plan", docs[1]).Revision
	for i := range commits {
		switch {
		case i%15 == 7: // an element added by Update, over the revision it read
			res, err := b.Update(ctx, store.UpdateRequest{Name: "plan", ExpectedRevision: rev, Actor: store.ActorAgent,
				Mutate: func(sc *store.Scene) ([]byte, error) {
					if string(sc.Data) != string(docs[rev]) {
						return nil, fmt.Errorf("update of revision %d found other bytes", rev)
					}
					els = append(els, El(fmt.Sprintf("new%d", i), i, "b"))
					return DocOf(els...), nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			rev = res.Revision
		case i%15 == 11: // forced over a stale revision, one element fewer
			els = append(els[:5:5], els[6:]...)
			rev = mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: rev - 3, Force: true, Data: DocOf(els...), Actor: store.ActorUI}).Revision
		default:
			at := []int{0, len(els) / 2, len(els) - 1}[i%3]
			els[at] = El(fmt.Sprintf("e%d", at), 1000+i, "c")
			rev = mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: rev, Data: DocOf(els...), Actor: store.ActorUI}).Revision
		}
		docs[rev] = DocOf(els...)
		if i%20 == 0 {
			res := mustSave(t, b, store.SaveRequest{Name: "plan", ExpectedRevision: rev, Data: docs[rev], Actor: store.ActorUI})
			if !res.Unchanged || res.Revision != rev {
				t.Fatalf("the same bytes again: %+v", res)
			}
		}
	}
	if rev != commits+1 {
		t.Fatalf("revision %d after %d commits", rev, commits)
	}
	sc, err := b.Read(ctx, "plan")
	if err != nil || sc.Revision != rev || sum(sc.Data) != sum(docs[rev]) || sc.SHA256 != sum(docs[rev]) || sc.ByteLength != int64(len(docs[rev])) {
		t.Fatalf("read: %v", err)
	}
	for r := int64(1); r < rev; r++ {
		data, err := b.ReadRevision(ctx, "plan", r)
		if err != nil || sum(data) != sum(docs[r]) {
			t.Fatalf("revision %d: %v (%d bytes, want %d)", r, err, len(data), len(docs[r]))
		}
	}
}
