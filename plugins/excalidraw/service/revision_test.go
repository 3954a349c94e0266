package service

import (
	"bytes"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestApplyStaleRevisionConflict(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	w, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(`{"op":"update","id":"b","patch":{"x":5}}`)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, Operations: raws(`{"op":"update","id":"b","patch":{"x":6}}`)})
	se := wantCode(t, err, sceneerr.RevisionConflict)
	d := se.Details
	if d["currentRevision"] != int64(2) || d["currentSha256"] != w.SHA256 || d["expectedRevision"] != int64(1) || d["updatedAt"] == "" {
		t.Fatalf("details %v", d)
	}
}

func TestApplyIdempotentRetry(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	req := ApplyRequest{Name: "flow", ExpectedRevision: 1, RequestID: "req-1", Operations: raws(`{"op":"add","element":{"type":"rectangle","x":0,"y":200}}`)}
	first, err := s.Apply(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	after := fileBytes(t, dir, "flow")
	again, err := s.Apply(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Duplicate || first.Duplicate || again.Revision != first.Revision || again.SHA256 != first.SHA256 || !again.Verified || again.ElementCount != first.ElementCount {
		t.Fatalf("first %+v again %+v", first, again)
	}
	if !bytes.Equal(after, fileBytes(t, dir, "flow")) {
		t.Fatal("retry changed the file")
	}
}

func TestConcurrentApplyOneWins(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1,
				Operations: raws(`{"op":"update","id":"b","patch":{"y":` + string(rune('1'+i)) + `0}}`)})
		})
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		if err == nil {
			wins++
			continue
		}
		wantCode(t, err, sceneerr.RevisionConflict)
	}
	if wins != 1 {
		t.Fatalf("%d winners: %v", wins, errs)
	}
	checkStored(t, dir, "flow")
}

// A retry that arrives after another write still gets its own commit's
// evidence, not a conflict.
func TestRetryAfterLaterWrite(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	req := ApplyRequest{Name: "flow", ExpectedRevision: 1, RequestID: "r1", Operations: raws(`{"op":"update","id":"b","patch":{"x":1}}`)}
	first, err := s.Apply(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 2, Operations: raws(`{"op":"update","id":"b","patch":{"x":2}}`)}); err != nil {
		t.Fatal(err)
	}
	again, err := s.Apply(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Duplicate || again.Revision != 2 || again.SHA256 != first.SHA256 || again.Operations != nil {
		t.Fatalf("%+v", again)
	}
}
