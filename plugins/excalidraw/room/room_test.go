package room

import (
	"bytes"
	"encoding/json"
	"testing"
)

func testRoom(t *testing.T) *room {
	t.Helper()
	keys, err := NewKeys(bytes.Repeat([]byte{1}, 32))
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{opts: Options{Keys: keys}}
	return newRoom(s, keys.RoomID("plan"), "plan", nil)
}

func el(id string, v int) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"id": id, "version": v, "versionNonce": 1})
	return b
}

// A member who joins after a commit the room has not sent yet read the
// board ahead of the room: the room must not skip to that revision, or
// the members already in it never get the commit's elements.
func TestLaterJoinerDoesNotMoveTheRoomOn(t *testing.T) {
	r := testRoom(t)
	if !r.admit(&member{id: "ann"}, 5, []json.RawMessage{el("a", 1)}) {
		t.Fatal("refused")
	}
	if r.revision != 5 || r.seen["a"].Version != 1 {
		t.Fatalf("the first member's board: revision %d, seen %v", r.revision, r.seen)
	}
	r.admit(&member{id: "bob"}, 6, []json.RawMessage{el("a", 1), el("g", 1)})
	if r.revision != 5 {
		t.Fatalf("a later joiner moved the room to revision %d", r.revision)
	}
	if _, ok := r.seen["g"]; ok {
		t.Fatal("the commit's element counts as sent to everyone")
	}
	r.closed = true
	if r.admit(&member{id: "cy"}, 6, nil) {
		t.Fatal("a closing room took a member")
	}
}

// elWith is el with more members.
func elWith(id string, v int, more map[string]any) json.RawMessage {
	m := map[string]any{"id": id, "version": v, "versionNonce": 1}
	for k, x := range more {
		m[k] = x
	}
	b, _ := json.Marshal(m)
	return b
}

func decode(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A preview of a write that then failed is taken back: an element the
// board has goes back to the board's content, one it lacks is deleted,
// each at a version above the one shown (so clients take it); one that a
// member has changed since is left alone. The board's next commit of a
// taken-back element reaches the members above that version, until a
// commit passes it.
func TestFailedWriteIsTakenBack(t *testing.T) {
	r := testRoom(t)
	r.admit(&member{id: "ann"}, 1, []json.RawMessage{el("a", 3), el("b", 3), el("d", 2)})
	shown := r.show([]json.RawMessage{elWith("a", 4, map[string]any{"x": 50}), el("new", 1), elWith("b", 4, map[string]any{"x": 9}), el("d", 2)})
	if len(shown) != 3 {
		t.Fatalf("showed %d elements, want a, new and b (not d, which the members had)", len(shown))
	}
	r.see(elementHead{ID: "b", Version: 5}) // ann drew over b since
	stored := []json.RawMessage{elWith("a", 3, map[string]any{"x": 0}), el("b", 3)}
	back := r.takeBack(shown, stored)
	if len(back) != 2 {
		t.Fatalf("took back %d elements, want a and new", len(back))
	}
	a, n := decode(t, back[0]), decode(t, back[1])
	if a["id"] != "a" || a["x"] != 0.0 || a["version"] != 5.0 || a["isDeleted"] == true {
		t.Errorf("a taken back as %v", a)
	}
	if n["id"] != "new" || n["isDeleted"] != true || n["version"] != 2.0 {
		t.Errorf("new taken back as %v", n)
	}
	if r.seen["a"].Version != 5 || r.seen["b"].Version != 5 {
		t.Errorf("the room has a at %v and b at %v", r.seen["a"].Version, r.seen["b"].Version)
	}

	// The write is made again and stored: a at version 4 must reach the
	// members above 5, and the next commit above that passes as it is.
	r.mu.Lock()
	again := decode(t, r.lift(elWith("a", 4, map[string]any{"x": 50})))
	later := decode(t, r.lift(el("a", 9)))
	other := r.lift(el("d", 2))
	_, still := r.lifted["a"]
	r.mu.Unlock()
	if again["version"] != 6.0 || again["x"] != 50.0 {
		t.Errorf("the write made again reaches the members as %v", again)
	}
	if later["version"] != 9.0 || still {
		t.Errorf("a commit past the lift: %v (still lifted: %v)", later, still)
	}
	if string(other) != string(el("d", 2)) {
		t.Errorf("an element never taken back was changed: %s", other)
	}
}

// Nobody in the room: a preview shows nothing and records nothing.
func TestPreviewOfAnEmptyRoom(t *testing.T) {
	r := testRoom(t)
	if shown := r.show([]json.RawMessage{el("a", 1)}); shown != nil || len(r.seen) != 0 {
		t.Fatalf("showed %v, seen %v", shown, r.seen)
	}
}
