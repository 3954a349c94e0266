package httpapi

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func intp(v int) *int { return &v }

func TestEvidenceBoundsEvents(t *testing.T) {
	ev := NewEvidence()
	for i := range DefaultEventLimit + 20 {
		if _, err := ev.Record(Status{Event: EventCanvasReady, Name: "a", ElementCount: intp(i)}); err != nil {
			t.Fatal(err)
		}
	}
	s := ev.Snapshot("a")
	if len(s.Events) != DefaultEventLimit {
		t.Fatalf("%d events kept", len(s.Events))
	}
	if s.Events[0].Seq != 21 || s.ElementCount != DefaultEventLimit+19 {
		t.Fatalf("oldest seq %d, count %d", s.Events[0].Seq, s.ElementCount)
	}
}

func TestEvidenceSnapshotIsACopy(t *testing.T) {
	ev := NewEvidence()
	sha := strings.Repeat("0", 64)
	rev := int64(2)
	if _, err := ev.Record(Status{Event: EventSaved, Name: "a", Revision: &rev, SHA256: sha, ElementCount: intp(1)}); err != nil {
		t.Fatal(err)
	}
	s := ev.Snapshot("a")
	s.Events[0].Event = "changed"
	s.LastSaved.Name = "changed"
	again := ev.Snapshot("a")
	if again.Events[0].Event != EventSaved || again.LastSaved.Name != "a" {
		t.Fatal("snapshot aliases the evidence")
	}
}

func TestEvidenceMountClearsErrorAndTruncates(t *testing.T) {
	ev := NewEvidence()
	if _, err := ev.Record(Status{Event: EventError, Name: "a", Message: strings.Repeat("é", maxMessageLen)}); err != nil {
		t.Fatal(err)
	}
	if s := ev.Snapshot("a"); len(s.Error) > maxMessageLen || !strings.HasPrefix(s.Error, "é") {
		t.Fatalf("error kept as %d bytes", len(s.Error))
	}
	if _, err := ev.Record(Status{Event: EventMounted, Name: "a", Build: "b", Width: intp(1), Height: intp(2)}); err != nil {
		t.Fatal(err)
	}
	if s := ev.Snapshot("a"); s.Error != "" || !s.Mounted {
		t.Fatalf("after mount: %+v", s)
	}
}

// TestEvidenceConcurrent is for the race detector: tabs report at once
// while /health reads.
func TestEvidenceConcurrent(t *testing.T) {
	ev := NewEvidence()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 100 {
				_, _ = ev.Record(Status{Event: EventError, Name: "a", Message: fmt.Sprint(g, i)})
			}
		}()
		go func() {
			defer wg.Done()
			for range 100 {
				_ = ev.Snapshot("a")
			}
		}()
	}
	wg.Wait()
	if s := ev.Snapshot("a"); s.Events[len(s.Events)-1].Seq != 400 {
		t.Fatalf("last seq %d", s.Events[len(s.Events)-1].Seq)
	}
}

// TestEvidenceKeepsBoardsApart: each board has its own events, numbered
// from 1, and a board without evidence has none; past the bound, the
// board reported on longest ago is forgotten.
func TestEvidenceKeepsBoardsApart(t *testing.T) {
	ev := NewEvidence()
	ev.maxBoards = 2
	sha := strings.Repeat("0", 64)
	rev := int64(3)
	if _, err := ev.Record(Status{Event: EventSaved, Name: "a", Revision: &rev, SHA256: sha, ElementCount: intp(1)}); err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Record(Status{Event: EventCanvasReady, Name: "b", ElementCount: intp(7)}); err != nil {
		t.Fatal(err)
	}
	a, b := ev.Snapshot("a"), ev.Snapshot("b")
	if len(a.Events) != 1 || a.Events[0].Seq != 1 || a.LastSaved == nil || a.ElementCount != 1 {
		t.Fatalf("a: %+v", a)
	}
	if len(b.Events) != 1 || b.Events[0].Seq != 1 || b.LastSaved != nil || b.ElementCount != 7 {
		t.Fatalf("b: %+v", b)
	}
	if none := ev.Snapshot("c"); none.Events == nil || len(none.Events) != 0 || none.Mounted {
		t.Fatalf("c: %+v", none)
	}
	if _, err := ev.Record(Status{Event: EventUnmounted, Name: "a"}); err != nil { // a is the latest now
		t.Fatal(err)
	}
	if _, err := ev.Record(Status{Event: EventUnmounted, Name: "c"}); err != nil {
		t.Fatal(err)
	}
	if got := ev.Boards(); strings.Join(got, ",") != "a,c" {
		t.Fatalf("boards kept %v, want a,c (b was reported on longest ago)", got)
	}
}
