package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// moveBoxPlan moves box id to x (a Write's plan, as update_elements
// makes one).
func moveBoxPlan(t *testing.T, id string, x int) Plan {
	ops, err := engine.DecodeOps(updateOf(id, x))
	if err != nil {
		t.Fatal(err)
	}
	return func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		return PlanResult{Targets: []string{id}}, tx.Apply(ops)
	}
}

// pendingOf is how many writes wait in the board's group queue.
func pendingOf(s *Service, name string) int {
	s.groups.mu.Lock()
	defer s.groups.mu.Unlock()
	if q := s.groups.m[name]; q != nil {
		return len(q.pending)
	}
	return 0
}

// awaitPending waits until n writes wait in the board's queue.
func awaitPending(t *testing.T, s *Service, name string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for pendingOf(s, name) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes wait for %s, want %d", pendingOf(s, name), name, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// Unfenced writes of one board that arrive while another of its writes
// is being committed wait for it and then share one commit: each still
// gets its own revision and envelope (only its own box changed), its own
// journal entry with its own note, and the board holds every move. A
// write whose plan fails in the group gets its own error and costs the
// others nothing; fenced writes and dry runs never wait in a group.
func TestUnfencedWritesShareACommit(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "b", Elements: boxes(40)}); err != nil {
		t.Fatal(err)
	}
	// The first write holds the board: its plan waits until the others
	// are queued behind it.
	release := make(chan struct{})
	first := make(chan error, 1)
	go func() {
		move := moveBoxPlan(t, "r0", 5)
		_, err := s.Write(ctx, WriteRequest{Name: "b", Options: WriteOptions{Note: "first"}},
			func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
				<-release
				return move(tx, doc)
			})
		first <- err
	}()
	for !s.groupBusy("b") {
		time.Sleep(time.Millisecond)
	}
	const n = 10
	type answer struct {
		env *Envelope
		err error
	}
	answers := make([]answer, n+1)
	var wg sync.WaitGroup
	for i := 1; i <= n; i++ {
		wg.Go(func() {
			plan := moveBoxPlan(t, fmt.Sprintf("r%d", i), i*100+5)
			if i == 7 {
				plan = moveBoxPlan(t, "no-such-box", 1)
			}
			env, err := s.Write(ctx, WriteRequest{Name: "b", Options: WriteOptions{Note: fmt.Sprintf("agent %d", i)}}, plan)
			answers[i] = answer{env, err}
		})
	}
	awaitPending(t, s, "b", n)
	// A fenced write and a dry run go their own way meanwhile: they
	// wait for the board's lock, not in the queue.
	rev := int64(1)
	fenced, dry := make(chan error, 1), make(chan error, 1)
	go func() {
		_, err := s.Write(ctx, WriteRequest{Name: "b", ExpectedRevision: &rev}, moveBoxPlan(t, "r30", 1))
		fenced <- err
	}()
	go func() {
		_, err := s.Write(ctx, WriteRequest{Name: "b", Options: WriteOptions{DryRun: true}}, moveBoxPlan(t, "r31", 1))
		dry <- err
	}()
	close(release)
	if err := <-dry; err != nil {
		t.Fatalf("dry run: %v", err)
	}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := <-fenced; err == nil {
		// It may land before the group (then the group goes on from
		// it) or after it (then it is stale): either way it was alone.
		t.Logf("the fenced write landed first")
	}
	if c, w := s.groups.commits.Load(), s.groups.writes.Load(); c != 2 || w != n+1 {
		t.Fatalf("%d writes in %d commits, want %d in 2 (the first alone, then the %d that waited)", w, c, n+1, n)
	}
	var se *sceneerr.Error
	if err := answers[7].err; !errors.As(err, &se) || se.Code != sceneerr.NotFound {
		t.Fatalf("the write of a missing box: %v", err)
	}
	var revs []int64
	for i := 1; i <= n; i++ {
		if i == 7 {
			continue
		}
		a := answers[i]
		if a.err != nil {
			t.Fatalf("write %d: %v", i, a.err)
		}
		if !slices.Equal(a.env.Changed.Updated, []string{fmt.Sprintf("r%d", i)}) || !a.env.Persisted {
			t.Fatalf("write %d's envelope: %+v", i, a.env)
		}
		revs = append(revs, a.env.Revision)
	}
	slices.Sort(revs)
	for k := 1; k < len(revs); k++ {
		if revs[k] != revs[k-1]+1 {
			t.Fatalf("the group's revisions are not consecutive: %v", revs)
		}
	}
	sc, err := s.store.st.Read(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	if sc.Revision != revs[len(revs)-1] && sc.Revision != revs[len(revs)-1]+1 {
		t.Fatalf("board at %d, the group's last revision %d", sc.Revision, revs[len(revs)-1])
	}
	var doc struct {
		Elements []struct {
			ID string  `json:"id"`
			X  float64 `json:"x"`
		} `json:"elements"`
	}
	if err := json.Unmarshal(sc.Data, &doc); err != nil {
		t.Fatal(err)
	}
	at := map[string]float64{}
	for _, el := range doc.Elements {
		at[el.ID] = el.X
	}
	for i := 1; i <= n; i++ {
		if id := fmt.Sprintf("r%d", i); i != 7 && at[id] != float64(i*100+5) {
			t.Fatalf("%s at x=%v, want %d", id, at[id], i*100+5)
		}
	}
	page, err := s.store.st.Log(ctx, store.LogQuery{Name: "b", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	notes := map[int64]string{}
	for _, e := range page.Entries {
		notes[e.Revision] = e.Note
	}
	for i := 1; i <= n; i++ {
		if i != 7 && notes[answers[i].env.Revision] != fmt.Sprintf("agent %d", i) {
			t.Fatalf("revision %d's journal note is %q, want write %d's", answers[i].env.Revision, notes[answers[i].env.Revision], i)
		}
	}
}

// groupBusy reports whether a group of the board is being committed.
func (s *Service) groupBusy(name string) bool {
	s.groups.mu.Lock()
	defer s.groups.mu.Unlock()
	q := s.groups.m[name]
	return q != nil && q.busy
}

// A write whose plan panics inside a group panics in its own caller, as
// it would alone; the writes beside it commit.
func TestPanickingWriteInAGroup(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "b", Elements: boxes(4)}); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	go func() {
		move := moveBoxPlan(t, "r0", 5)
		_, _ = s.Write(ctx, WriteRequest{Name: "b"}, func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
			<-release
			return move(tx, doc)
		})
	}()
	for !s.groupBusy("b") {
		time.Sleep(time.Millisecond)
	}
	panicked := make(chan any, 1)
	go func() {
		defer func() { panicked <- recover() }()
		_, _ = s.Write(ctx, WriteRequest{Name: "b"}, func(*engine.Txn, *scene.Document) (PlanResult, error) {
			panic("a bug in a plan")
		})
	}()
	other := make(chan error, 1)
	awaitPending(t, s, "b", 1)
	go func() {
		_, err := s.Write(ctx, WriteRequest{Name: "b"}, moveBoxPlan(t, "r1", 105))
		other <- err
	}()
	awaitPending(t, s, "b", 2)
	close(release)
	if p := <-panicked; p != "a bug in a plan" {
		t.Fatalf("the panicking write's caller got %v", p)
	}
	if err := <-other; err != nil {
		t.Fatalf("the write beside it: %v", err)
	}
}

// A write whose context ends while it waits in the queue leaves it and
// is never written; the group goes on without it.
func TestCancelledWriteLeavesTheQueue(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "b", Elements: boxes(4)}); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		move := moveBoxPlan(t, "r0", 5)
		_, err := s.Write(ctx, WriteRequest{Name: "b"}, func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
			<-release
			return move(tx, doc)
		})
		done <- err
	}()
	for !s.groupBusy("b") {
		time.Sleep(time.Millisecond)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancelled := make(chan error, 1)
	go func() {
		_, err := s.Write(cctx, WriteRequest{Name: "b"}, moveBoxPlan(t, "r1", 105))
		cancelled <- err
	}()
	awaitPending(t, s, "b", 1)
	cancel()
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled write: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if h, err := s.Head(ctx, "b"); err != nil || h.Revision != 2 {
		t.Fatalf("head %+v %v: want revision 2 (the first write only)", h, err)
	}
}
