package room

import (
	"bytes"
	"strings"
	"testing"
)

func TestKeyRoundTripAndRefusals(t *testing.T) {
	keys, err := NewKeys(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	k := keys.Key("plan")
	if s := k.String(); len(s) != 22 || strings.ContainsAny(s, "+/=") {
		t.Fatalf("key %q is not a room link's 22 base64url characters", s)
	}
	back, err := ParseKey(k.String())
	if err != nil || back.String() != k.String() {
		t.Fatalf("parse %v", err)
	}
	data, iv := k.Seal([]byte(`{"type":"SCENE_UPDATE"}`))
	if plain, err := back.Open(data, iv); err != nil || string(plain) != `{"type":"SCENE_UPDATE"}` {
		t.Fatalf("open %q %v", plain, err)
	}
	// Another board's key, a changed byte, a short IV: refused.
	if _, err := keys.Key("other").Open(data, iv); err != ErrUndecryptable {
		t.Fatalf("another key opened it: %v", err)
	}
	data[0] ^= 1
	if _, err := k.Open(data, iv); err != ErrUndecryptable {
		t.Fatalf("a changed message opened: %v", err)
	}
	if _, err := k.Open(data, iv[:8]); err != ErrUndecryptable {
		t.Fatal("a short iv opened")
	}
	if _, err := ParseKey("not base64!"); err == nil {
		t.Fatal("a bad key parsed")
	}
	if _, err := ParseKey("AAAA"); err == nil {
		t.Fatal("a 3-byte key parsed")
	}
	// Room ids: 20 hex digits, one per board, the same from the same secret.
	again, _ := NewKeys(bytes.Repeat([]byte{7}, 32))
	if id := keys.RoomID("a.b"); len(id) != 20 || id != again.RoomID("a.b") || id == keys.RoomID("a.c") {
		t.Fatalf("room ids %q %q %q", id, again.RoomID("a.b"), keys.RoomID("a.c"))
	}
	if _, err := NewKeys([]byte("short")); err == nil {
		t.Fatal("a short secret was taken")
	}
}
