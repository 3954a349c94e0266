package store

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// phaseLog records the phases a store tells of.
type phaseLog struct {
	mu     sync.Mutex
	phases []string
}

func (l *phaseLog) tell(phase string, d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.phases = append(l.phases, phase)
}

// take is what was told since the last take.
func (l *phaseLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.phases
	l.phases = nil
	return out
}

// A commit tells of its phases, the wait for the scene first; a writer
// whose deadline ends its wait behind another tells of a lock wait that
// gave up (and of no phase: it commits nothing), and is scene_busy.
func TestPhasesTellOfLockWaits(t *testing.T) {
	var log phaseLog
	s := journalStore(t, func(o *Options) { o.Phases = log.tell })
	if _, err := s.Create(bg, CreateRequest{Name: "p", Data: journalDoc("v1"), Actor: ActorAgent}); err != nil {
		t.Fatal(err)
	}
	log.take()
	updateWithDoc(t, s, "p", "v2")
	got := log.take()
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
	log.take() // the holder's lock
	ctx, cancel := context.WithTimeout(bg, 50*time.Millisecond)
	defer cancel()
	_, err := s.Update(ctx, UpdateRequest{Name: "p", AnyRevision: true, Actor: ActorAgent,
		Mutate: func(*Scene) ([]byte, error) { return journalDoc("v4"), nil }})
	wantCode(t, err, CodeSceneBusy)
	if got := log.take(); !slices.Equal(got, []string{PhaseLockGaveUp}) {
		t.Fatalf("the writer that gave up told of %v", got)
	}
	free()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
