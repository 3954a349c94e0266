package store

import (
	"bytes"
	"os"
	"testing"
)

func TestCreateWritesRevisionOne(t *testing.T) {
	s := testStore(t)
	data := doc(3, "a")
	res, err := s.Create(bg, CreateRequest{Name: "architecture", Data: data, Actor: ActorAgent, RequestID: "r1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Revision != 1 || !res.Verified || res.Duplicate || res.ElementCount != 3 ||
		res.ByteLength != int64(len(data)) || res.SHA256 != sha256Hex(data) || res.UpdatedBy != ActorAgent {
		t.Fatalf("result %+v", res)
	}
	if res.PreviousRevision != 0 || res.PreviousSHA256 != "" {
		t.Fatalf("previous %+v", res.Meta)
	}
	if got := readFile(t, scenePathOf(s, "architecture")); !bytes.Equal(got, data) {
		t.Fatal("scene bytes differ")
	}
	sc := readSidecarFile(t, s, "architecture")
	if sc.Revision != 1 || sc.SHA256 != res.SHA256 || len(sc.RecentRequests) != 1 || sc.RecentRequests[0].ID != "r1" {
		t.Fatalf("sidecar %+v", sc)
	}
	fi, _ := os.Stat(scenePathOf(s, "architecture"))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	noTemps(t, s)
}

func TestCreateExistingIsAlreadyExists(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "x")
	// Create is not idempotent by request id: the name is the identity.
	_, err := s.Create(bg, CreateRequest{Name: "a", Data: doc(1, "y"), Actor: ActorAgent})
	wantCode(t, err, CodeAlreadyExists)
	// A file dropped in without a sidecar counts as existing too.
	writeFile(t, scenePathOf(s, "dropped"), doc(1, "z"))
	_, err = s.Create(bg, CreateRequest{Name: "dropped", Data: doc(1, "y"), Actor: ActorAgent})
	wantCode(t, err, CodeAlreadyExists)
}

func TestCreateRejectsInvalidInput(t *testing.T) {
	s := testStore(t, func(o *Options) { o.MaxSceneBytes = 100 })
	_, err := s.Create(bg, CreateRequest{Name: "a", Data: []byte("{nope"), Actor: ActorAgent})
	wantCode(t, err, CodeInvalidScene)
	_, err = s.Create(bg, CreateRequest{Name: "a", Data: doc(10, "big"), Actor: ActorAgent})
	wantCode(t, err, CodeTooLarge)
	_, err = s.Create(bg, CreateRequest{Name: "a", Data: doc(1, "x"), Actor: "someone"})
	wantCode(t, err, CodeInvalidRequest)
	_, err = s.Create(bg, CreateRequest{Name: "a", Data: doc(1, "x"), Actor: ActorAgent, RequestID: "bad\x00id"})
	wantCode(t, err, CodeInvalidRequest)
	_, err = s.Create(bg, CreateRequest{Name: "A", Data: doc(1, "x"), Actor: ActorAgent})
	wantCode(t, err, CodeInvalidName)
	if _, err := os.Stat(scenePathOf(s, "a")); !os.IsNotExist(err) {
		t.Fatalf("rejected create left a file: %v", err)
	}
}

func TestCreateOverOrphanSidecarStartsAtOne(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "x")
	mustSave(t, s, "a", 1, doc(2, "y"))
	// The scene is deleted by hand; its sidecar stays behind.
	os.Remove(scenePathOf(s, "a"))
	res := mustCreate(t, s, "a", 4, "new")
	if res.Revision != 1 || res.PreviousRevision != 0 {
		t.Fatalf("recreated at %+v", res.Meta)
	}
	if sc := readSidecarFile(t, s, "a"); sc.Revision != 1 || len(sc.RecentRequests) != 0 {
		t.Fatalf("sidecar %+v", sc)
	}
}
