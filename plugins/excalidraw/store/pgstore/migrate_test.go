package pgstore

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

// store.CopyAll moves scenes with their journal into the database and
// back; a rerun copies nothing; a scene that differs in the destination
// is refused, never overwritten.
func TestCopyAll(t *testing.T) {
	ctx := context.Background()
	fs := fileStore(t, "", nil)
	if _, err := fs.Create(ctx, store.CreateRequest{Name: "plan", Data: storetest.DocOf(storetest.El("a", 0, "x")), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Save(ctx, store.SaveRequest{Name: "plan", Data: storetest.DocOf(storetest.El("a", 5, "y")), ExpectedRevision: 1, Actor: store.ActorUI}); err != nil {
		t.Fatal(err)
	}
	pg, _ := pgStore(t, nil)
	copied, unchanged, journal, err := store.CopyAll(ctx, pg, fs, nil)
	if err != nil || copied != 1 || unchanged != 0 || journal != 2 {
		t.Fatalf("first copy: %d copied, %d unchanged, %d journal entries, %v", copied, unchanged, journal, err)
	}
	if copied, unchanged, _, err = store.CopyAll(ctx, pg, fs, nil); err != nil || copied != 0 || unchanged != 1 {
		t.Fatalf("a rerun: %d copied, %d unchanged, %v", copied, unchanged, err)
	}

	// Back into an empty drawings directory, and a scene that differs there.
	back := fileStore(t, "", nil)
	if _, _, _, err := store.CopyAll(ctx, back, pg, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := back.Save(ctx, store.SaveRequest{Name: "plan", Data: storetest.DocOf(storetest.El("a", 9, "z")), ExpectedRevision: 2, Actor: store.ActorUI}); err != nil {
		t.Fatal(err)
	}
	_, _, _, err = store.CopyAll(ctx, back, pg, nil)
	var se *store.Error
	if err == nil || !strings.Contains(err.Error(), "plan") || !errors.As(err, &se) || se.Code != store.CodeAlreadyExists {
		t.Fatalf("a scene that differs: %v", err)
	}
}
