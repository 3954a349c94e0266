package exports

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

const testSecret = "a secret long enough to sign with"

// An exports folder that is a symlink is refused at Open: nothing is
// made or written where it points.
func TestSymlinkedExportsFolderIsRefusedAtOpen(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	if err := os.Mkdir(outside, 0o700); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(base, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(data, "exports")); err != nil {
		t.Fatal(err)
	}
	before := dshtest.Tree(t, outside)
	c := &clock{time.Unix(1_800_000_000, 0)}
	if _, err := Open(Config{Dir: filepath.Join(data, "exports"), Secret: []byte(testSecret), Now: c.now}); sceneerr.CodeOf(err) != sceneerr.PermissionDenied {
		t.Fatalf("Open on a symlinked folder: %v, want permission_denied", err)
	}
	dshtest.SameTree(t, "the symlink's target", before, dshtest.Tree(t, outside))
}

// A folder swapped for a symlink after Open is refused by every later
// operation: Put writes nothing where it points, a link to a file there
// is not served, and the sweep removes nothing there.
func TestExportsFolderSwappedForASymlinkIsRefused(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	s, dir := open(t, testSecret, c)
	l, err := s.Put(NewID()+".svg", []byte("<svg/>"), 0)
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.Rename(dir, outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, dir); err != nil {
		t.Fatal(err)
	}
	before := dshtest.Tree(t, outside)
	if _, err := s.Put(NewID()+".png", []byte("picture"), 0); sceneerr.CodeOf(err) != sceneerr.PermissionDenied {
		t.Fatalf("Put through a symlinked folder: %v, want permission_denied", err)
	}
	id, exp, sig := parse(t, l)
	if f, err := s.Open(id, exp, sig); sceneerr.CodeOf(err) != sceneerr.PermissionDenied {
		if f != nil {
			f.Close()
		}
		t.Fatalf("Open through a symlinked folder: %v, want permission_denied", err)
	}
	c.t = c.t.Add(365 * 24 * time.Hour)
	if n, err := s.Sweep(); n != 0 || sceneerr.CodeOf(err) != sceneerr.PermissionDenied {
		t.Fatalf("Sweep through a symlinked folder: %d, %v", n, err)
	}
	dshtest.SameTree(t, "the symlink's target", before, dshtest.Tree(t, outside))
}

// An export that is a symlink (to a file outside, or to another export)
// is never served, even by a genuine link; the sweep never removes what
// it points at.
func TestSymlinkedExportFileIsNotServed(t *testing.T) {
	c := &clock{time.Unix(1_800_000_000, 0)}
	s, dir := open(t, testSecret, c)
	secretFile := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secretFile, []byte("not for you"), 0o600); err != nil {
		t.Fatal(err)
	}
	id := NewID() + ".json"
	if err := os.Symlink(secretFile, filepath.Join(dir, id)); err != nil {
		t.Fatal(err)
	}
	l := s.Sign(id, time.Hour, 0)
	gotID, exp, sig := parse(t, l)
	f, err := s.Open(gotID, exp, sig)
	if err == nil {
		f.Close()
		t.Fatal("a symlinked export was opened")
	}
	if sceneerr.CodeOf(err) != sceneerr.PermissionDenied || errors.Is(err, ErrNoLongerKept) {
		t.Fatalf("symlinked export: %v, want permission_denied", err)
	}
	if list, err := s.b.list(bg); err != nil || len(list) != 0 {
		t.Fatalf("listed %+v %v; a symlink is no export", list, err)
	}
	c.t = c.t.Add(365 * 24 * time.Hour)
	if _, err := s.Sweep(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(secretFile); err != nil || string(b) != "not for you" {
		t.Fatalf("the symlink's target changed: %q %v", b, err)
	}
}
