package store

import (
	"fmt"
	"sync"
	"testing"
)

// N goroutines save with the same expected revision: exactly one wins, every
// other one gets revision_conflict with the winner's revision and hash.
func TestConcurrentSavesExactlyOneWins(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	const n = 16
	results := make([]*Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			results[i], errs[i] = s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1,
				Data: doc(1, fmt.Sprint("writer-", i)), Actor: ActorAgent})
		})
	}
	close(start)
	wg.Wait()
	var winner *Result
	for i := range n {
		if errs[i] == nil {
			if winner != nil {
				t.Fatalf("two winners: %+v and %+v", winner, results[i])
			}
			winner = results[i]
		}
	}
	if winner == nil || winner.Revision != 2 {
		t.Fatalf("winner %+v", winner)
	}
	for i := range n {
		if errs[i] == nil {
			continue
		}
		e := wantCode(t, errs[i], CodeRevisionConflict)
		if e.Details["currentRevision"] != int64(2) || e.Details["currentSha256"] != winner.SHA256 ||
			e.Details["expectedRevision"] != int64(1) || e.Details["updatedAt"] != formatTime(winner.UpdatedAt) {
			t.Fatalf("details %v", e.Details)
		}
	}
	if s.queue.size() != 0 {
		t.Fatalf("queue holds %d names after all finished", s.queue.size())
	}
}

// Concurrent Updates with AnyRevision are serialised: none is lost.
func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 0, "")
	const n = 12
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			_, err := s.Update(bg, UpdateRequest{Name: "a", AnyRevision: true, Actor: ActorAgent,
				Mutate: func(cur *Scene) ([]byte, error) { return doc(cur.ElementCount+1, ""), nil }})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	sc, err := s.Read(bg, "a")
	if err != nil || sc.ElementCount != n || sc.Revision != n+1 {
		t.Fatalf("%+v %v", sc, err)
	}
}

// Different scenes do not wait for each other.
func TestDifferentScenesProceedIndependently(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "a")
	mustCreate(t, s, "b", 1, "b")
	entered := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
			Mutate: func(*Scene) ([]byte, error) { close(entered); <-release; return doc(2, "a"), nil }})
		done <- err
	}()
	<-entered
	mustSave(t, s, "b", 1, doc(2, "b")) // completes while "a" is held
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
