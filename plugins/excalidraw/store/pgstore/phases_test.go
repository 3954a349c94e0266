package pgstore

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

// A commit tells of PostgreSQL's phases in order (a create has no row
// to lock); a writer whose deadline ends its wait for the scene's row
// lock, held by another transaction, tells of a lock wait that gave up,
// is scene_busy and commits nothing.
func TestPhasesTellOfLockWaits(t *testing.T) {
	pool := openPool(t, pgtest.DSN(t))
	var log dshtest.Record[string]
	s := openStore(t, pool, Options{Codec: storetest.Codec{}, Phases: func(phase string, _ time.Duration) { log.Add(phase) }})
	ctx := context.Background()
	if _, err := s.Create(ctx, store.CreateRequest{Name: "p", Data: storetest.Doc(1, "a"), Actor: store.ActorAgent}); err != nil {
		t.Fatal(err)
	}
	if got, want := log.Take(), []string{store.PhaseBegin, store.PhaseWrite, store.PhaseCommit}; !slices.Equal(got, want) {
		t.Fatalf("a create told of %v, want %v", got, want)
	}
	if _, err := s.Save(ctx, store.SaveRequest{Name: "p", Data: storetest.Doc(1, "b"), ExpectedRevision: 1, Actor: store.ActorUI}); err != nil {
		t.Fatal(err)
	}
	want := []string{store.PhaseBegin, store.PhaseLock, store.PhaseRead, store.PhaseWrite, store.PhaseCommit}
	if got := log.Take(); !slices.Equal(got, want) {
		t.Fatalf("a save told of %v, want %v", got, want)
	}

	holder, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Rollback(ctx) }()
	if _, err := holder.Exec(ctx, `SELECT 1 FROM scenes WHERE name = 'p' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	_, err = s.Save(wctx, store.SaveRequest{Name: "p", Data: storetest.Doc(1, "c"), ExpectedRevision: 2, Actor: store.ActorUI})
	if se := (*store.Error)(nil); !errors.As(err, &se) || se.Code != store.CodeSceneBusy {
		t.Fatalf("a save past its deadline behind a held row lock: %v, want scene_busy", err)
	}
	if got, want := log.Take(), []string{store.PhaseBegin, store.PhaseLockGaveUp}; !slices.Equal(got, want) {
		t.Fatalf("the save that gave up told of %v, want %v", got, want)
	}
	if err := holder.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if h, err := s.Head(ctx, "p"); err != nil || h.Revision != 2 {
		t.Fatalf("after the save that gave up: %+v %v", h, err)
	}
}
