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
		if _, err := ev.Record(Status{Event: EventCanvasReady, ElementCount: intp(i)}); err != nil {
			t.Fatal(err)
		}
	}
	s := ev.Snapshot()
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
	s := ev.Snapshot()
	s.Events[0].Event = "changed"
	s.LastSaved.Name = "changed"
	again := ev.Snapshot()
	if again.Events[0].Event != EventSaved || again.LastSaved.Name != "a" {
		t.Fatal("snapshot aliases the evidence")
	}
}

func TestEvidenceMountClearsErrorAndTruncates(t *testing.T) {
	ev := NewEvidence()
	if _, err := ev.Record(Status{Event: EventError, Message: strings.Repeat("é", maxMessageLen)}); err != nil {
		t.Fatal(err)
	}
	if s := ev.Snapshot(); len(s.Error) > maxMessageLen || !strings.HasPrefix(s.Error, "é") {
		t.Fatalf("error kept as %d bytes", len(s.Error))
	}
	if _, err := ev.Record(Status{Event: EventMounted, Build: "b", Width: intp(1), Height: intp(2)}); err != nil {
		t.Fatal(err)
	}
	if s := ev.Snapshot(); s.Error != "" || !s.Mounted {
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
				_, _ = ev.Record(Status{Event: EventError, Message: fmt.Sprint(g, i)})
			}
		}()
		go func() {
			defer wg.Done()
			for range 100 {
				_ = ev.Snapshot()
			}
		}()
	}
	wg.Wait()
	if s := ev.Snapshot(); s.Events[len(s.Events)-1].Seq != 400 {
		t.Fatalf("last seq %d", s.Events[len(s.Events)-1].Seq)
	}
}
