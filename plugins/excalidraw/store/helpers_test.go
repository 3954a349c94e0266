package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.uber.org/zap/zaptest"
)

// jsonCodec is the test codec: {"elements":[...]} → len(elements).
type jsonCodec struct{}

func (jsonCodec) Inspect(data []byte) (int, error) {
	var doc struct {
		Elements *[]json.RawMessage `json:"elements"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return 0, err
	}
	if doc.Elements == nil {
		return 0, errors.New(`missing "elements"`)
	}
	return len(*doc.Elements), nil
}

// doc makes a document with n elements whose content depends on tag.
func doc(n int, tag string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"excalidraw","elements":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"e%d","tag":%q}`, i, tag)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

var bg = context.Background()

// testStore opens a store on a fresh drawings directory.
func testStore(t testing.TB, mod ...func(*Options)) *Store {
	t.Helper()
	opts := Options{Dir: filepath.Join(t.TempDir(), "drawings"), Codec: jsonCodec{}, Logger: zaptest.NewLogger(t)}
	for _, m := range mod {
		m(&opts)
	}
	s, err := Open(opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// mustCreate creates name with doc(n, tag) and returns the result.
func mustCreate(t testing.TB, s *Store, name string, n int, tag string) *Result {
	t.Helper()
	res, err := s.Create(bg, CreateRequest{Name: name, Data: doc(n, tag), Actor: ActorAgent})
	if err != nil {
		t.Fatalf("Create %s: %v", name, err)
	}
	return res
}

func mustSave(t testing.TB, s *Store, name string, rev int64, data []byte) *Result {
	t.Helper()
	res, err := s.Save(bg, SaveRequest{Name: name, ExpectedRevision: rev, Data: data, Actor: ActorAgent})
	if err != nil {
		t.Fatalf("Save %s@%d: %v", name, rev, err)
	}
	return res
}

// wantCode fails unless err carries code.
func wantCode(t testing.TB, err error, code string) *Error {
	t.Helper()
	var se *Error
	if !errors.As(err, &se) || se.Code != code {
		t.Fatalf("want %s, got %v", code, err)
	}
	if se.Status != statusOf(code) {
		t.Fatalf("status %d for %s", se.Status, code)
	}
	return se
}

func scenePathOf(s *Store, name string) string {
	return filepath.Join(s.dir, sceneFile(name))
}
func sidecarPathOf(s *Store, name string) string {
	return filepath.Join(s.dir, metaDir, sidecarFile(name))
}
func backupPathOf(s *Store, name string, rev int64) string {
	return filepath.Join(s.dir, metaDir, backupsDir, backupFile(name, rev, true))
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// readSidecarFile parses a sidecar straight from disk.
func readSidecarFile(t testing.TB, s *Store, name string) *sidecar {
	t.Helper()
	sc, err := parseSidecar(name, readFile(t, sidecarPathOf(s, name)))
	if err != nil {
		t.Fatalf("sidecar of %s: %v", name, err)
	}
	return sc
}

// snapshot captures the scene and sidecar bytes so a failed save can be
// checked to have left both byte-identical.
type snapshot struct{ scene, side []byte }

func takeSnapshot(t testing.TB, s *Store, name string) snapshot {
	t.Helper()
	return snapshot{readFile(t, scenePathOf(s, name)), readFile(t, sidecarPathOf(s, name))}
}

func (sn snapshot) check(t testing.TB, s *Store, name string) {
	t.Helper()
	if got := readFile(t, scenePathOf(s, name)); !bytes.Equal(got, sn.scene) {
		t.Fatalf("scene bytes changed:\n%s\nwant\n%s", got, sn.scene)
	}
	if got := readFile(t, sidecarPathOf(s, name)); !bytes.Equal(got, sn.side) {
		t.Fatalf("sidecar bytes changed:\n%s\nwant\n%s", got, sn.side)
	}
}

// noTemps fails if any temp file is left in the store's directories.
func noTemps(t testing.TB, s *Store) {
	t.Helper()
	for _, d := range []string{s.dir, filepath.Join(s.dir, metaDir), filepath.Join(s.dir, metaDir, backupsDir)} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.Contains(e.Name(), tempInfix) {
				t.Fatalf("temp file left: %s/%s", d, e.Name())
			}
		}
	}
}

// faultFS wraps the real FS. Before each operation it calls hook with the
// operation and the path it concerns; a non-nil return fails the operation.
// readHook may replace what ReadFile returns.
type faultFS struct {
	FS
	mu       sync.Mutex
	hook     func(op, path string) error
	readHook func(path string, data []byte) []byte
}

func newFaultFS() *faultFS { return &faultFS{FS: OSFS()} }

func (f *faultFS) set(hook func(op, path string) error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hook = hook
}

func (f *faultFS) setRead(h func(path string, data []byte) []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.readHook = h
}

func (f *faultFS) call(op, path string) error {
	f.mu.Lock()
	h := f.hook
	f.mu.Unlock()
	if h == nil {
		return nil
	}
	return h(op, path)
}

// failOnce returns a hook that fails the first op whose path satisfies match.
func failOnce(op string, match func(path string) bool) func(string, string) error {
	var once sync.Once
	return func(o, p string) error {
		var err error
		if o == op && match(p) {
			once.Do(func() { err = fmt.Errorf("injected %s failure on %s: %w", op, p, errInjected) })
		}
		return err
	}
}

var errInjected = errors.New("injected")

// isSceneTemp matches the temp file of scene name (the only thing written
// to the drawings root besides the scene itself).
func isSceneTemp(name string) func(string) bool {
	return func(p string) bool {
		target, ok := splitTemp(filepath.Base(p))
		return ok && target == sceneFile(name)
	}
}

func isSidecarTemp(name string) func(string) bool {
	return func(p string) bool {
		target, ok := splitTemp(filepath.Base(p))
		return ok && target == sidecarFile(name)
	}
}

func (f *faultFS) OpenDir(parent *os.File, name string) (*os.File, error) {
	if err := f.call("opendir", label(parent, name)); err != nil {
		return nil, err
	}
	return f.FS.OpenDir(parent, name)
}

func (f *faultFS) ReadDir(dir *os.File) ([]string, error) {
	if err := f.call("readdir", dir.Name()); err != nil {
		return nil, err
	}
	return f.FS.ReadDir(dir)
}

func (f *faultFS) OpenFile(dir *os.File, name string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := f.call("open", label(dir, name)); err != nil {
		return nil, err
	}
	return f.FS.OpenFile(dir, name, flag, perm)
}

func (f *faultFS) ReadFile(dir *os.File, name string, limit int64) ([]byte, fs.FileInfo, error) {
	path := label(dir, name)
	if err := f.call("read", path); err != nil {
		return nil, nil, err
	}
	data, info, err := f.FS.ReadFile(dir, name, limit)
	f.mu.Lock()
	h := f.readHook
	f.mu.Unlock()
	if err == nil && h != nil {
		data = h(path, data)
	}
	return data, info, err
}

func (f *faultFS) Write(file *os.File, p []byte) (int, error) {
	if err := f.call("write", file.Name()); err != nil {
		// Write part of it first, like a disk that fills up midway.
		n, _ := f.FS.Write(file, p[:len(p)/2])
		return n, err
	}
	return f.FS.Write(file, p)
}

func (f *faultFS) Sync(file *os.File) error {
	if err := f.call("sync", file.Name()); err != nil {
		return err
	}
	return f.FS.Sync(file)
}

func (f *faultFS) Rename(dir *os.File, oldName, newName string, noReplace bool) error {
	if err := f.call("rename", label(dir, newName)); err != nil {
		return err
	}
	return f.FS.Rename(dir, oldName, newName, noReplace)
}

func (f *faultFS) Remove(dir *os.File, name string) error {
	if err := f.call("remove", label(dir, name)); err != nil {
		return err
	}
	return f.FS.Remove(dir, name)
}

func (f *faultFS) Link(oldDir *os.File, oldName string, newDir *os.File, newName string) error {
	if err := f.call("link", label(newDir, newName)); err != nil {
		return err
	}
	return f.FS.Link(oldDir, oldName, newDir, newName)
}

func (f *faultFS) Lstat(dir *os.File, name string) (fs.FileInfo, error) {
	if err := f.call("lstat", label(dir, name)); err != nil {
		return nil, err
	}
	return f.FS.Lstat(dir, name)
}

func readFileErr(path string) ([]byte, error) { return os.ReadFile(path) }
