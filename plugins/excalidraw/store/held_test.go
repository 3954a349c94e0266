package store

import (
	"bytes"
	"testing"
)

// TestHeldSceneIsRead: after this Store's own commit HeldScene answers
// what Read would (the record, and the file's bytes), on a filesystem
// whose ctimes prove it at once; it never answers bytes the file no
// longer has: after a hand edit it has nothing.
func TestHeldSceneIsRead(t *testing.T) {
	ctimeModes(t, func(t *testing.T, coarse func(*Store)) {
		s := testStore(t)
		coarse(s)
		mustCreate(t, s, "a", 2, "one")
		res := mustSave(t, s, "a", 1, doc(3, "two"))
		held, ok := s.HeldScene(bg, "a")
		switch {
		case !ok && s.fineCtimes():
			t.Fatal("nothing held right after this Store's commit, on a filesystem whose ctimes prove it")
		case ok && (held.Meta != res.Meta || !bytes.Equal(held.Data, readFile(t, scenePathOf(s, "a"))) || sha256Hex(held.Data) != held.SHA256):
			t.Fatalf("held %+v (%d bytes), committed %+v", held.Meta, len(held.Data), res.Meta)
		}
		if ok && wantHead(t, s, "a") != held.Meta {
			t.Fatal("held is not Read's record")
		}
		writeFile(t, scenePathOf(s, "a"), doc(4, "by hand"))
		if held, ok := s.HeldScene(bg, "a"); ok {
			t.Fatalf("after a hand edit: held %+v", held.Meta)
		}
		if _, ok := s.HeldScene(bg, "missing"); ok {
			t.Fatal("a missing scene is held")
		}
		if _, ok := s.HeldScene(bg, "Bad"); ok {
			t.Fatal("an invalid name is held")
		}
	})
}
