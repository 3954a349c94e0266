// Package statefiletest is the conformance suite of package statefile's
// backends: Run checks the documents of a statefile.Backend, RunWindows
// its rate-limit windows. The file backend and package pgstate's pass the
// same checks.
package statefiletest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/statefile"
)

// Open makes a fresh, empty store for t and returns what opens it: each
// call of node is the store as another node (another process, another
// pool on the same database) sees it.
type Open func(t *testing.T) (node func() statefile.Backend)

// Run checks a backend's documents.
func Run(t *testing.T, open Open) {
	t.Run("ReadMissing", func(t *testing.T) { readMissing(t, open(t)()) })
	t.Run("RoundTrip", func(t *testing.T) { roundTrip(t, open(t)()) })
	t.Run("Serialised", func(t *testing.T) { serialised(t, open(t)) })
	t.Run("ViewSeesOtherWriter", func(t *testing.T) { viewSeesOtherWriter(t, open(t)) })
	t.Run("ViewUnderWrites", func(t *testing.T) { viewUnderWrites(t, open(t)) })
	t.Run("FailedChangeWritesNothing", func(t *testing.T) { failedChange(t, open(t)()) })
	t.Run("Typed", func(t *testing.T) { typed(t, open(t)) })
}

var ctx = context.Background()

// readMissing: a document never written is missing (nil bytes, the zero
// value), and stays so for a cheap check.
func readMissing(t *testing.T, b statefile.Backend) {
	d := b.Doc("missing")
	data, v, changed, err := d.Fetch(ctx, nil)
	if err != nil || data != nil || !changed {
		t.Fatalf("Fetch of a missing document = %q %v %v, want nil, changed", data, changed, err)
	}
	if data, _, changed, err := d.Fetch(ctx, v); err != nil || changed || data != nil {
		t.Fatalf("Fetch since its version = %q %v %v, want unchanged", data, changed, err)
	}
	got, err := statefile.ReadDoc(ctx, d, parseCounter)
	if err != nil || got != (counter{}) {
		t.Fatalf("ReadDoc = %+v %v, want the zero value", got, err)
	}
	if d.Where() == "" {
		t.Fatal("Where is empty")
	}
}

// roundTrip: the exact bytes written are read; a check since their
// version is unchanged; an empty document exists; documents are apart.
func roundTrip(t *testing.T, b statefile.Backend) {
	d := b.Doc("one")
	want := []byte("{\"a\": [1, 2]}\n")
	put(t, d, want)
	data, v, changed, err := d.Fetch(ctx, nil)
	if err != nil || !changed || !bytes.Equal(data, want) {
		t.Fatalf("Fetch = %q %v %v, want %q", data, changed, err, want)
	}
	if _, _, changed, err := d.Fetch(ctx, v); err != nil || changed {
		t.Fatalf("Fetch since = changed %v %v, want unchanged", changed, err)
	}
	var seen []byte
	err = d.Update(ctx, func(cur []byte) ([]byte, bool, error) {
		seen = bytes.Clone(cur)
		return []byte{}, true, nil
	})
	if err != nil || !bytes.Equal(seen, want) {
		t.Fatalf("Update saw %q (%v), want %q", seen, err, want)
	}
	data, _, changed, err = d.Fetch(ctx, v)
	if err != nil || !changed || data == nil || len(data) != 0 {
		t.Fatalf("Fetch of an empty document = %q %v %v, want empty, not missing", data, changed, err)
	}
	if data, _, _, err := b.Doc("two").Fetch(ctx, nil); err != nil || data != nil {
		t.Fatalf("another document = %q %v, want missing", data, err)
	}
}

func put(t *testing.T, d statefile.Doc, data []byte) {
	t.Helper()
	if err := d.Update(ctx, func([]byte) ([]byte, bool, error) { return data, true, nil }); err != nil {
		t.Fatal(err)
	}
}

type counter struct {
	N int `json:"n"`
}

func parseCounter(where string, data []byte) (counter, error) {
	var c counter
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("parse %s: %w", where, err)
	}
	return c, nil
}

// serialised: goroutines of two nodes each adding one to a counter, many
// times, lose none of each other's additions.
func serialised(t *testing.T, node func() statefile.Backend) {
	const nodes, goroutines, each = 2, 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, nodes*goroutines*each)
	for range nodes {
		d := node().Doc("counter")
		for range goroutines {
			wg.Go(func() {
				for range each {
					errs <- statefile.UpdateDoc(ctx, d, parseCounter, func(c counter) (counter, bool, error) {
						c.N++
						return c, true, nil
					})
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := statefile.ReadDoc(ctx, node().Doc("counter"), parseCounter)
	if want := nodes * goroutines * each; err != nil || got.N != want {
		t.Fatalf("counter = %d (%v), want %d: an update was lost", got.N, err, want)
	}
}

// viewSeesOtherWriter: a view on one node sees another node's writes on
// its next Load, and keeps its parsed value while nothing changed.
func viewSeesOtherWriter(t *testing.T, node func() statefile.Backend) {
	parses := 0
	parse := func(where string, data []byte) (counter, error) {
		parses++
		return parseCounter(where, data)
	}
	view := statefile.ViewOf(node().Doc("seen"), parse, nil)
	other := node().Doc("seen")
	load := func(want int) {
		t.Helper()
		got, err := view.Load(ctx)
		if err != nil || got.N != want {
			t.Fatalf("Load = %d %v, want %d", got.N, err, want)
		}
	}
	load(0)
	for i := 1; i <= 3; i++ {
		put(t, other, fmt.Appendf(nil, `{"n": %d}`, i))
		load(i)
		load(i)
	}
	if parses != 3 {
		t.Fatalf("%d parses for 3 changes: an unchanged document was parsed again", parses)
	}
	view.Invalidate()
	load(3)
	if parses != 4 {
		t.Fatalf("Invalidate did not make the view read again (%d parses)", parses)
	}
	// A document that no longer parses fails the load, and the view
	// keeps nothing of what it had.
	put(t, other, []byte("{not json"))
	if got, err := view.Load(ctx); err == nil || got.N != 0 {
		t.Fatalf("Load of a broken document = %+v %v, want an error and nothing", got, err)
	}
	put(t, other, []byte(`{"n": 7}`))
	load(7)
}

// viewUnderWrites: readers loading one view while another node writes
// never see the counter go back, and see the last write once it is done.
func viewUnderWrites(t *testing.T, node func() statefile.Backend) {
	const writes, readers = 30, 4
	view := statefile.ViewOf(node().Doc("busy"), parseCounter, nil)
	writer := node().Doc("busy")
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range readers {
		wg.Go(func() {
			last := 0
			for {
				select {
				case <-done:
					return
				default:
				}
				c, err := view.Load(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				if c.N < last {
					t.Errorf("a reader saw %d after %d", c.N, last)
					return
				}
				last = c.N
			}
		})
	}
	stop := sync.OnceFunc(func() { close(done); wg.Wait() })
	defer stop()
	for range writes {
		err := statefile.UpdateDoc(ctx, writer, parseCounter, func(c counter) (counter, bool, error) {
			c.N++
			return c, true, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	stop()
	if c, err := view.Load(ctx); err != nil || c.N != writes {
		t.Fatalf("after the writes: %d %v, want %d", c.N, err, writes)
	}
}

var errRefused = errors.New("refused")

// failedChange: a change that fails, or says there is nothing to write,
// writes nothing (a missing document stays missing, bytes stay as they
// were), and its error comes back as it was.
func failedChange(t *testing.T, b statefile.Backend) {
	d := b.Doc("failed")
	fail := func() {
		t.Helper()
		err := d.Update(ctx, func([]byte) ([]byte, bool, error) { return []byte("no"), true, errRefused })
		if err != errRefused {
			t.Fatalf("Update = %v, want the change's own error", err)
		}
		if err := d.Update(ctx, func([]byte) ([]byte, bool, error) { return []byte("no"), false, nil }); err != nil {
			t.Fatal(err)
		}
	}
	fail()
	if data, _, _, err := d.Fetch(ctx, nil); err != nil || data != nil {
		t.Fatalf("after failed changes: %q %v, want missing", data, err)
	}
	put(t, d, []byte("yes"))
	_, v, _, _ := d.Fetch(ctx, nil)
	fail()
	if data, _, changed, err := d.Fetch(ctx, v); err != nil || changed {
		t.Fatalf("after failed changes: changed %v (%q) %v, want unchanged", changed, data, err)
	}
	if data, _, _, err := d.Fetch(ctx, nil); err != nil || string(data) != "yes" {
		t.Fatalf("after failed changes: %q %v, want \"yes\"", data, err)
	}
}

// typed: UpdateDoc writes JSON that ReadDoc and a View parse back, and
// passes on the change's error.
func typed(t *testing.T, node func() statefile.Backend) {
	d := node().Doc("typed")
	err := statefile.UpdateDoc(ctx, d, parseCounter, func(c counter) (counter, bool, error) { return counter{N: 41}, true, nil })
	if err != nil {
		t.Fatal(err)
	}
	err = statefile.UpdateDoc(ctx, d, parseCounter, func(c counter) (counter, bool, error) { return c, true, errRefused })
	if !errors.Is(err, errRefused) {
		t.Fatalf("UpdateDoc = %v, want the change's error", err)
	}
	got, err := statefile.ReadDoc(ctx, node().Doc("typed"), parseCounter)
	if err != nil || got.N != 41 {
		t.Fatalf("ReadDoc = %+v %v", got, err)
	}
	put(t, d, []byte("[broken"))
	err = statefile.UpdateDoc(ctx, d, parseCounter, func(c counter) (counter, bool, error) { return c, true, nil })
	if err == nil {
		t.Fatal("UpdateDoc over a document that does not parse succeeded")
	}
	if data, _, _, _ := d.Fetch(ctx, nil); string(data) != "[broken" {
		t.Fatalf("a document that does not parse was overwritten: %q", data)
	}
}

// OpenWindows makes fresh, empty windows for t and returns what opens
// them: each call of node is the windows as another node sees them (the
// same windows, for those kept in one process's memory).
type OpenWindows func(t *testing.T) (node func() statefile.Windows)

// RunWindows checks a backend's windows.
func RunWindows(t *testing.T, open OpenWindows) {
	t.Run("Sliding", func(t *testing.T) { sliding(t, open(t)()) })
	t.Run("UndoClear", func(t *testing.T) { undoClear(t, open(t)()) })
	t.Run("Concurrent", func(t *testing.T) { concurrent(t, open(t)) })
	t.Run("Weighted", func(t *testing.T) { weighted(t, open(t)) })
}

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func take(t *testing.T, w statefile.Windows, key string, now time.Time, limit int, window time.Duration) (bool, time.Time) {
	t.Helper()
	ok, retry, err := w.Take(ctx, key, now, limit, window)
	if err != nil {
		t.Fatal(err)
	}
	return ok, retry
}

func count(t *testing.T, w statefile.Windows, key string, now time.Time, window time.Duration) (int, time.Time) {
	t.Helper()
	n, oldest, err := w.Count(ctx, key, now, window)
	if err != nil {
		t.Fatal(err)
	}
	return n, oldest
}

// sliding: at most limit events in any window; the next is allowed when
// the oldest in the way leaves it (an event exactly window old is out);
// keys are counted apart.
func sliding(t *testing.T, w statefile.Windows) {
	const limit, window = 3, time.Hour
	for i := range limit {
		if ok, _ := take(t, w, "a", t0.Add(time.Duration(i)*10*time.Minute), limit, window); !ok {
			t.Fatalf("take %d refused", i)
		}
	}
	now := t0.Add(30 * time.Minute)
	if ok, retry := take(t, w, "a", now, limit, window); ok || !retry.Equal(t0.Add(window)) {
		t.Fatalf("fourth take = %v, retry %v; want refused until %v", ok, retry, t0.Add(window))
	}
	if n, oldest := count(t, w, "a", now, window); n != limit || !oldest.Equal(t0) {
		t.Fatalf("Count = %d, oldest %v; want %d, %v", n, oldest, limit, t0)
	}
	if ok, _ := take(t, w, "b", now, limit, window); !ok {
		t.Fatal("another key was limited")
	}
	if ok, _ := take(t, w, "a", t0.Add(window-time.Microsecond), limit, window); ok {
		t.Fatal("allowed before the oldest left the window")
	}
	if ok, _ := take(t, w, "a", t0.Add(window), limit, window); !ok {
		t.Fatal("refused once the oldest left the window")
	}
	if ok, retry := take(t, w, "a", t0.Add(window), limit, window); ok || !retry.Equal(t0.Add(10*time.Minute+window)) {
		t.Fatalf("take = %v, retry %v; want refused until the second leaves", ok, retry)
	}
	if n, oldest := count(t, w, "a", t0.Add(3*window), window); n != 0 || !oldest.IsZero() {
		t.Fatalf("Count long after = %d %v, want none", n, oldest)
	}
	if ok, retry := take(t, w, "z", now, 0, window); ok || !retry.After(now) {
		t.Fatalf("a limit of 0 = %v %v, want refused", ok, retry)
	}
}

// undoClear: Undo takes back the newest event, Clear all; on a key with
// none both are no-ops.
func undoClear(t *testing.T, w statefile.Windows) {
	const limit, window = 2, time.Hour
	for _, k := range []string{"none"} {
		if err := w.Undo(ctx, k); err != nil {
			t.Fatal(err)
		}
		if err := w.Clear(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	take(t, w, "k", t0, limit, window)
	take(t, w, "k", t0.Add(time.Minute), limit, window)
	if ok, _ := take(t, w, "k", t0.Add(2*time.Minute), limit, window); ok {
		t.Fatal("over the limit")
	}
	if err := w.Undo(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if n, oldest := count(t, w, "k", t0.Add(2*time.Minute), window); n != 1 || !oldest.Equal(t0) {
		t.Fatalf("after Undo: %d, oldest %v; want the oldest kept", n, oldest)
	}
	if ok, _ := take(t, w, "k", t0.Add(2*time.Minute), limit, window); !ok {
		t.Fatal("refused after Undo")
	}
	if err := w.Clear(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if n, _ := count(t, w, "k", t0.Add(2*time.Minute), window); n != 0 {
		t.Fatalf("after Clear: %d", n)
	}
	for range limit {
		if ok, _ := take(t, w, "k", t0.Add(3*time.Minute), limit, window); !ok {
			t.Fatal("refused after Clear")
		}
	}
}

// concurrent: goroutines of two nodes taking at once get exactly limit
// events between them.
func concurrent(t *testing.T, node func() statefile.Windows) {
	const nodes, goroutines, limit = 2, 8, 5
	var wg sync.WaitGroup
	var mu sync.Mutex
	taken := 0
	for range nodes {
		w := node()
		for range goroutines {
			wg.Go(func() {
				ok, _, err := w.Take(ctx, "shared", t0, limit, time.Hour)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					taken++
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	if taken != limit {
		t.Fatalf("%d takes allowed at once, want exactly %d", taken, limit)
	}
}

// weighted: TakeN counts n events or none; it is refused while fewer
// than n fit, until enough of the oldest leave; more than limit never
// fits; UndoN takes back the newest n; goroutines of two nodes never get
// more than limit between them.
func weighted(t *testing.T, node func() statefile.Windows) {
	w := node()
	const limit, window = 10, time.Hour
	takeN := func(now time.Time, n int) (bool, time.Time) {
		t.Helper()
		ok, retry, err := w.TakeN(ctx, "w", now, n, limit, window)
		if err != nil {
			t.Fatal(err)
		}
		return ok, retry
	}
	if ok, _ := takeN(t0, 4); !ok {
		t.Fatal("4 of 10 refused")
	}
	if ok, _ := takeN(t0.Add(time.Minute), 5); !ok {
		t.Fatal("5 more refused")
	}
	// 9 counted: 2 more must wait for the first 4 to leave.
	if ok, retry := takeN(t0.Add(2*time.Minute), 2); ok || !retry.Equal(t0.Add(window)) {
		t.Fatalf("2 more = %v, retry %v; want refused until %v", ok, retry, t0.Add(window))
	}
	if n, _ := count(t, w, "w", t0.Add(2*time.Minute), window); n != 9 {
		t.Fatalf("a refused TakeN counted: %d", n)
	}
	// 7 more need 6 gone: the first 4 and 2 of the next 5.
	if ok, retry := takeN(t0.Add(2*time.Minute), 7); ok || !retry.Equal(t0.Add(time.Minute+window)) {
		t.Fatalf("7 more = %v, retry %v; want refused until %v", ok, retry, t0.Add(time.Minute+window))
	}
	if ok, retry := takeN(t0.Add(2*time.Minute), limit+1); ok || !retry.IsZero() {
		t.Fatalf("more than the limit = %v, retry %v; want never", ok, retry)
	}
	if err := w.UndoN(ctx, "w", 5); err != nil {
		t.Fatal(err)
	}
	if n, oldest := count(t, w, "w", t0.Add(2*time.Minute), window); n != 4 || !oldest.Equal(t0) {
		t.Fatalf("after UndoN(5): %d, oldest %v; want the first 4", n, oldest)
	}
	if err := w.UndoN(ctx, "w", 100); err != nil {
		t.Fatal(err)
	}
	if n, _ := count(t, w, "w", t0.Add(2*time.Minute), window); n != 0 {
		t.Fatalf("after UndoN(100): %d", n)
	}
	if ok, _ := takeN(t0.Add(3*time.Minute), limit); !ok {
		t.Fatal("the whole limit at once refused")
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	taken := 0
	for range 2 {
		w := node()
		for range 6 {
			wg.Go(func() {
				ok, _, err := w.TakeN(ctx, "shared-n", t0, 3, limit, time.Hour)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					taken += 3
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	if taken != 9 {
		t.Fatalf("%d counted by racing TakeN of 3 against 10, want 9", taken)
	}
}
