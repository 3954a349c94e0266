package store

import (
	"bytes"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
)

// A store that committed a scene's bytes does not read the file again
// for its next write while the pair stands: the one read of the scene in
// that write is its read-back. When the file changed since (another
// writer, a hand edit), the write reads it and writes over what is there.
func TestNextWriteTakesItsOwnCommittedBytes(t *testing.T) {
	ffs := newFaultFS()
	s := testStore(t, func(o *Options) { o.FS = ffs })
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(2, "two"))
	scene := scenePathOf(s, "a")
	var reads atomic.Int32
	ffs.set(func(op, p string) error {
		if op == "read" && p == scene {
			reads.Add(1)
		}
		return nil
	})
	mustSave(t, s, "a", 2, doc(3, "three"))
	if n := reads.Load(); n != 1 {
		t.Fatalf("the scene was read %d times in a write after the store's own commit, want once (the read-back)", n)
	}

	// A hand edit of the same length, in place.
	edited := bytes.Replace(doc(3, "three"), []byte("three"), []byte("THREE"), 1)
	f, err := os.OpenFile(scene, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(edited, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	reads.Store(0)
	_, err = s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 3, Data: doc(4, "four"), Actor: ActorAgent})
	if reads.Load() == 0 {
		t.Fatal("the hand-edited file was not read: the write trusted what the store held")
	}
	// The file won: the hand edit is revision 4 (recovery), and the write
	// that expected 3 is refused rather than laid over it.
	wantCode(t, err, CodeRevisionConflict)
	cur, err := s.Read(bg, "a")
	if err != nil || cur.Revision != 4 || !bytes.Equal(cur.Data, edited) {
		t.Fatalf("revision %v is not the hand edit (%v)", cur, err)
	}
}

// The bytes known records keep are bounded: past maxHeldScenes scenes the
// oldest records drop theirs (and their next write reads the file).
func TestKnownBytesAreBounded(t *testing.T) {
	s := testStore(t)
	for i := range maxHeldScenes + 3 {
		mustCreate(t, s, fmt.Sprintf("s%d", i), 1, "x")
	}
	held := 0
	s.known.Range(func(_, v any) bool {
		if v.(*knownScene).data != nil {
			held++
		}
		return true
	})
	if held > maxHeldScenes || s.held.total > maxHeldBytes {
		t.Fatalf("%d records hold their bytes (%d bytes), want at most %d", held, s.held.total, maxHeldScenes)
	}
	v, ok := s.known.Load("s0")
	if ok && v.(*knownScene).data != nil {
		t.Fatal("the oldest record kept its bytes")
	}
}
