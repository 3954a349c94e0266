package store

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// A commit tells of its phases, the wait for the scene first; a writer
// whose deadline ends its wait behind another tells of a lock wait that
// gave up (and of no phase: it commits nothing), and is scene_busy.
func TestPhasesTellOfLockWaits(t *testing.T) {
	var log dshtest.Record[string]
	s := journalStore(t, func(o *Options) { o.Phases = func(phase string, _ time.Duration) { log.Add(phase) } })
	if _, err := s.Create(bg, CreateRequest{Name: "p", Data: journalDoc("v1"), Actor: ActorAgent}); err != nil {
		t.Fatal(err)
	}
	log.Take()
	updateWithDoc(t, s, "p", "v2")
	got := log.Take()
	slices.Sort(got)
	if want := []string{PhaseFsync, PhaseJournal, PhaseLock, PhaseRename, PhaseWrite}; !slices.Equal(got, want) {
		t.Fatalf("an update told of phases %v, want %v", got, want)
	}

	holding, release := make(chan struct{}), make(chan struct{})
	free := sync.OnceFunc(func() { close(release) })
	defer free() // also when the test fails: the store closes only once the holder is done
	done := make(chan error, 1)
	go func() {
		_, err := s.Update(bg, UpdateRequest{Name: "p", AnyRevision: true, Actor: ActorAgent, Mutate: func(*Scene) ([]byte, error) {
			close(holding)
			<-release
			return journalDoc("v3"), nil
		}})
		done <- err
	}()
	<-holding
	log.Take() // the holder's lock
	ctx, cancel := context.WithTimeout(bg, 50*time.Millisecond)
	defer cancel()
	_, err := s.Update(ctx, UpdateRequest{Name: "p", AnyRevision: true, Actor: ActorAgent,
		Mutate: func(*Scene) ([]byte, error) { return journalDoc("v4"), nil }})
	wantCode(t, err, CodeSceneBusy)
	if got := log.Take(); !slices.Equal(got, []string{PhaseLockGaveUp}) {
		t.Fatalf("the writer that gave up told of %v", got)
	}
	free()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
