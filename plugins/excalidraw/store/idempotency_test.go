package store

import (
	"fmt"
	"sync/atomic"
	"testing"
)

func TestRepeatedRequestIDIsDuplicate(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	var calls atomic.Int32
	req := UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent, RequestID: "agent-2026-10-28-1",
		Mutate: func(cur *Scene) ([]byte, error) { calls.Add(1); return doc(2, "two"), nil }}
	first, err := s.Update(bg, req)
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.Update(bg, req)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 1 {
		t.Fatalf("mutation ran %d times", calls.Load())
	}
	if !second.Duplicate || first.Duplicate || second.Revision != first.Revision || second.SHA256 != first.SHA256 ||
		second.Meta != first.Meta || !second.Verified {
		t.Fatalf("first %+v\nsecond %+v", first, second)
	}
	if sc := readSidecarFile(t, s, "a"); sc.Revision != 2 {
		t.Fatalf("duplicate wrote: %+v", sc)
	}
}

// The request id is checked before the fence: a retry whose expected
// revision is stale because its own first attempt succeeded is a duplicate,
// not a conflict.
func TestRetryWithStaleRevisionButKnownRequestIsDuplicate(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	req := SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "two"), Actor: ActorUI, RequestID: "ui-7"}
	first, err := s.Save(bg, req)
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, s, "a", 2, doc(1, "three")) // someone else moves on
	again, err := s.Save(bg, req)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Duplicate || again.Revision != 2 || again.SHA256 != first.SHA256 ||
		again.ByteLength != first.ByteLength || again.ElementCount != first.ElementCount || !again.SavedAt.Equal(first.SavedAt) {
		t.Fatalf("first %+v\nagain %+v", first, again)
	}
	// Force is no exception.
	req.Force = true
	if again, err := s.Save(bg, req); err != nil || !again.Duplicate {
		t.Fatalf("%+v %v", again, err)
	}
}

// A create's request id is remembered too, so a save retrying it (a client
// that reuses ids) is answered from history.
func TestCreateRequestIDIsRemembered(t *testing.T) {
	s := testStore(t)
	created, err := s.Create(bg, CreateRequest{Name: "a", Data: doc(1, "x"), Actor: ActorAgent, RequestID: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 9, Data: doc(1, "y"), Actor: ActorAgent, RequestID: "c1"})
	if err != nil || !res.Duplicate || res.Meta != created.Meta {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestOnlyTheLast32RequestIDsAreRemembered(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	const n = MaxRecentRequests + 3
	for i := range n {
		mustSaveID(t, s, int64(i+1), fmt.Sprintf("req-%d", i))
	}
	sc := readSidecarFile(t, s, "a")
	if len(sc.RecentRequests) != MaxRecentRequests || sc.RecentRequests[0].ID != "req-3" ||
		sc.RecentRequests[MaxRecentRequests-1].ID != fmt.Sprintf("req-%d", n-1) {
		t.Fatalf("remembered %d, first %s", len(sc.RecentRequests), sc.RecentRequests[0].ID)
	}
	// req-3 is the oldest remembered: duplicate. req-2 is forgotten: it is a
	// new request again, and its stale revision is now a conflict.
	res, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 4, Data: doc(1, "x"), Actor: ActorAgent, RequestID: "req-3"})
	if err != nil || !res.Duplicate || res.Revision != 5 {
		t.Fatalf("%+v %v", res, err)
	}
	_, err = s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 3, Data: doc(1, "x"), Actor: ActorAgent, RequestID: "req-2"})
	wantCode(t, err, CodeRevisionConflict)
}

// Request ids survive a sidecar rebuild after an external edit.
func TestRequestIDsSurviveReconcile(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	mustSaveID(t, s, 1, "r1")
	writeFile(t, scenePathOf(s, "a"), doc(1, "hand edit"))
	res, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "x"), Actor: ActorAgent, RequestID: "r1"})
	if err != nil || !res.Duplicate || res.Revision != 2 {
		t.Fatalf("%+v %v", res, err)
	}
}

func mustSaveID(t *testing.T, s *Store, rev int64, id string) *Result {
	t.Helper()
	res, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: rev, Data: doc(1, id), Actor: ActorAgent, RequestID: id})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
