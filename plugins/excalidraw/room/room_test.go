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
