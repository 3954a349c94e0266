package store

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOpenCreatesPrivateDirectories(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	s, err := Open(Options{Dir: dir, Codec: jsonCodec{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, p := range []string{dir, filepath.Join(dir, metaDir), filepath.Join(dir, metaDir, backupsDir),
		filepath.Join(dir, metaDir, locksDir)} {
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v %v", p, fi, err)
		}
	}
	if s.Dir() != dir {
		t.Fatal(s.Dir())
	}
}

func TestOpenRequiresParentAndOptions(t *testing.T) {
	_, err := Open(Options{Dir: filepath.Join(t.TempDir(), "no", "such"), Codec: jsonCodec{}})
	wantCode(t, err, CodeIOError)
	_, err = Open(Options{Codec: jsonCodec{}})
	wantCode(t, err, CodeInvalidRequest)
	_, err = Open(Options{Dir: t.TempDir()})
	wantCode(t, err, CodeInvalidRequest)
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, nil)
	_, err = Open(Options{Dir: file, Codec: jsonCodec{}})
	wantCode(t, err, CodePermissionDenied)
}

func TestCloseIsIdempotentAndFinal(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wantCode(t, err2(s.Read(bg, "a")), CodeIOError)
	wantCode(t, err2(s.List(bg)), CodeIOError)
}

// Close waits for an operation in progress.
func TestCloseWaitsForRunningOperation(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	inside := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
			Mutate: func(*Scene) ([]byte, error) { close(inside); <-release; return doc(1, "two"), nil }})
		done <- err
	}()
	<-inside
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned while an update was running")
	default:
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	<-closed
}
