package files

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// traceFS wraps the real store.FS: it records each operation as
// "op name" (name: the last element of the path it concerns, with a
// temporary file's random part dropped) and fails the ones fail picks.
type traceFS struct {
	store.FS
	mu   sync.Mutex
	ops  []string
	fail func(op string) error
}

func (f *traceFS) do(op, path string) error {
	base := filepath.Base(path)
	if strings.HasPrefix(base, tmpPrefix) {
		base = tmpPrefix
	}
	op += " " + base
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ops = append(f.ops, op)
	if f.fail != nil {
		return f.fail(op)
	}
	return nil
}

// take returns the operations recorded since the last take.
func (f *traceFS) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	ops := f.ops
	f.ops = nil
	return ops
}

func (f *traceFS) failWith(fail func(op string) error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail = fail
}

func (f *traceFS) Mkdir(parent *os.File, name string, perm fs.FileMode) error {
	if err := f.do("mkdir", name); err != nil {
		return err
	}
	return f.FS.Mkdir(parent, name, perm)
}

func (f *traceFS) OpenFile(dir *os.File, name string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := f.do("open", name); err != nil {
		return nil, err
	}
	return f.FS.OpenFile(dir, name, flag, perm)
}

func (f *traceFS) Write(file *os.File, p []byte) (int, error) {
	if err := f.do("write", file.Name()); err != nil {
		return 0, err
	}
	return f.FS.Write(file, p)
}

func (f *traceFS) Sync(file *os.File) error {
	if err := f.do("sync", file.Name()); err != nil {
		return err
	}
	return f.FS.Sync(file)
}

func (f *traceFS) Rename(dir *os.File, oldName, newName string, noReplace bool) error {
	op := "rename"
	if noReplace {
		op = "rename-noreplace"
	}
	if err := f.do(op, oldName); err != nil {
		return err
	}
	return f.FS.Rename(dir, oldName, newName, noReplace)
}

func (f *traceFS) Remove(dir *os.File, name string) error {
	if err := f.do("remove", name); err != nil {
		return err
	}
	return f.FS.Remove(dir, name)
}

func openTraced(t *testing.T) (*Store, *traceFS) {
	t.Helper()
	tfs := &traceFS{FS: store.OSFS()}
	s, err := Open(Config{Dir: filepath.Join(t.TempDir(), "files"), FS: tfs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	tfs.take()
	return s, tfs
}

// A write is durable in this order: new directories made and synced in
// their parent, the temporary file written and synced, renamed into
// place (refusing to replace first, then replacing), the directory
// synced.
func TestPutIsDurableInOrder(t *testing.T) {
	s, tfs := openTraced(t)
	p := mustPath(t, "rooms/b/f")
	name := fileName(p)
	put(t, s, p, "", []byte("one"))
	want := []string{
		"mkdir rooms", "sync files",
		"mkdir b", "sync rooms",
		"open " + tmpPrefix, "write " + tmpPrefix, "write " + tmpPrefix, "sync " + tmpPrefix,
		"rename-noreplace " + tmpPrefix, "sync b",
	}
	if got := tfs.take(); !slices.Equal(got, want) {
		t.Fatalf("first write:\n got %q\nwant %q", got, want)
	}
	if _, created := put(t, s, p, "", []byte("two")); created {
		t.Fatal("replacement reported created")
	}
	want = []string{
		"open " + tmpPrefix, "write " + tmpPrefix, "write " + tmpPrefix, "sync " + tmpPrefix,
		"rename-noreplace " + tmpPrefix, "rename " + tmpPrefix, "sync b",
	}
	if got := tfs.take(); !slices.Equal(got, want) {
		t.Fatalf("replacement:\n got %q\nwant %q", got, want)
	}
	if _, err := os.Lstat(filepath.Join(s.Dir(), roomsArea, "b", name)); err != nil {
		t.Fatal(err)
	}
}

// A failure at any step before the rename leaves the old file and no
// temporary file; a failed directory sync after it is reported.
func TestFaultsLeaveTheOldFile(t *testing.T) {
	for _, op := range []string{
		"open " + tmpPrefix, "write " + tmpPrefix, "sync " + tmpPrefix,
		"rename-noreplace " + tmpPrefix, "rename " + tmpPrefix, "sync b",
	} {
		t.Run(op, func(t *testing.T) {
			s, tfs := openTraced(t)
			p := mustPath(t, "rooms/b/f")
			put(t, s, p, "image/png", []byte("old"))
			boom := errors.New("injected")
			tfs.failWith(func(o string) error {
				if o == op {
					return fmt.Errorf("%s: %w", o, boom)
				}
				return nil
			})
			_, _, err := s.Put(bg, p, "", 3, bytes.NewReader([]byte("new")))
			if !errors.Is(err, boom) {
				t.Fatalf("got %v", err)
			}
			tfs.failWith(nil)
			want := "old"
			if op == "sync b" {
				want = "new" // in place, but not known to be durable
			}
			if _, d := get(t, s, p); string(d) != want {
				t.Fatalf("%q, want %q", d, want)
			}
			noTemps(t, s)
		})
	}
}

// A failed sync of a new directory's parent fails the write.
func TestNewDirectorySyncFailureIsReported(t *testing.T) {
	s, tfs := openTraced(t)
	boom := errors.New("injected")
	tfs.failWith(func(o string) error {
		if o == "sync rooms" {
			return boom
		}
		return nil
	})
	_, _, err := s.Put(bg, mustPath(t, "rooms/b/f"), "", 1, bytes.NewReader([]byte("x")))
	if !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
}
