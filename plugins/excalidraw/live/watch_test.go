package live

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

func openService(t *testing.T, dir string) *service.Service {
	t.Helper()
	s, err := service.New(service.Config{DrawingsDir: dir, LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// headReader is what the plugin wires in: the service's head as a Change.
func headReader(s *service.Service) ReadFunc {
	return func(ctx context.Context, name string) (Change, error) {
		h, err := s.Head(ctx, name)
		return Change{Name: h.Name, Revision: h.Revision, SHA256: h.SHA256, ElementCount: h.ElementCount,
			UpdatedBy: h.UpdatedBy, At: h.UpdatedAt}, err
	}
}

func watch(t *testing.T, dir string, hub *Hub, read ReadFunc, own ...OwnFunc) *Watcher {
	t.Helper()
	var p OwnFunc
	if len(own) > 0 {
		p = own[0]
	}
	w, err := Watch(dir, hub, read, nil, p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return w
}

var rect = []json.RawMessage{json.RawMessage(`{"type":"rectangle","id":"r","x":0,"y":0,"width":10,"height":10}`)}

// TestWatcherSeesAnotherProcess: "this" process watches and reads through
// its own service; a second service on the same directory stands in for
// another process (its commits reach this one only through the files).
func TestWatcherSeesAnotherProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	mine := openService(t, dir)
	other := openService(t, dir)
	hub := NewHub(nil)
	defer hub.Close()
	watch(t, dir, hub, headReader(mine))
	sub := subscribe(t, hub, "flow")

	created, err := other.Create(context.Background(), service.CreateRequest{Name: "flow", Elements: rect})
	if err != nil {
		t.Fatal(err)
	}
	c := recv(t, sub)
	want := Change{Name: "flow", Revision: 1, SHA256: created.SHA256, ElementCount: 1, UpdatedBy: "agent", At: created.SavedAt}
	if c != want {
		t.Fatalf("got %+v, want %+v", c, want)
	}

	applied, err := other.Apply(context.Background(), service.ApplyRequest{Name: "flow", ExpectedRevision: 1,
		Operations: []json.RawMessage{json.RawMessage(`{"op":"delete","id":"r"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if c := recv(t, sub); c.Revision != 2 || c.SHA256 != applied.SHA256 {
		t.Fatalf("got %+v, want revision 2 %s", c, applied.SHA256)
	}
}

// TestWatcherSurvivesMetadataDirRecreated: a watch on a removed directory
// is lost; the store recreates .dsh-excalidraw at its next write and the
// watcher must follow it there.
func TestWatcherSurvivesMetadataDirRecreated(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	mine := openService(t, dir)
	other := openService(t, dir)
	hub := NewHub(nil)
	defer hub.Close()
	watch(t, dir, hub, headReader(mine))
	if err := os.RemoveAll(filepath.Join(dir, store.MetaDir)); err != nil {
		t.Fatal(err)
	}
	sub := subscribe(t, hub, "later")
	if _, err := other.Create(context.Background(), service.CreateRequest{Name: "later", Elements: rect}); err != nil {
		t.Fatal(err)
	}
	if c := recv(t, sub); c.Name != "later" || c.Revision != 1 {
		t.Fatalf("got %+v", c)
	}
}

// TestWatcherStartsWithoutMetadataDir: a directory no store has opened
// yet is watched from its root.
func TestWatcherStartsWithoutMetadataDir(t *testing.T) {
	dir := t.TempDir()
	hub := NewHub(nil)
	defer hub.Close()
	// The service opens after the watch (its Open creates .dsh-excalidraw);
	// file events do not order memory for the race detector, hence atomic.
	var mine atomic.Pointer[service.Service]
	read := func(ctx context.Context, name string) (Change, error) { return headReader(mine.Load())(ctx, name) }
	watch(t, dir, hub, read)
	sub := subscribe(t, hub, "fresh")
	mine.Store(openService(t, dir))
	if _, err := mine.Load().Create(context.Background(), service.CreateRequest{Name: "fresh", Elements: rect}); err != nil {
		t.Fatal(err)
	}
	if c := recv(t, sub); c.Name != "fresh" || c.Revision != 1 {
		t.Fatalf("got %+v", c)
	}
}

func TestWatchRefusesMissingDir(t *testing.T) {
	hub := NewHub(nil)
	defer hub.Close()
	if w, err := Watch(filepath.Join(t.TempDir(), "absent"), hub, headReader(nil), nil, nil); err == nil {
		_ = w.Close()
		t.Fatal("Watch of a missing directory succeeded")
	}
}

func TestWatcherCloseIsIdempotent(t *testing.T) {
	hub := NewHub(nil)
	defer hub.Close()
	w, err := Watch(t.TempDir(), hub, headReader(nil), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestSidecarName(t *testing.T) {
	for base, want := range map[string]string{
		"flow.meta.json": "flow", "a.b.meta.json": "a.b", ".flow.meta.json.tmp-0123456789abcdef": "",
		".meta.json": "", "flow.excalidraw": "", "backups": "",
	} {
		got, ok := sidecarName(base)
		if got != want || ok != (want != "") {
			t.Errorf("sidecarName(%q) = %q, %v; want %q", base, got, ok, want)
		}
	}
}

// TestWatcherSkipsCommitsTheHubHas: this process's own commits reach the
// hub through the commit hook; when the watcher then sees their sidecar,
// it does not read the scene again. Another process's commit is read.
func TestWatcherSkipsCommitsTheHubHas(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	hub := NewHub(nil)
	defer hub.Close()
	mine, err := service.New(service.Config{DrawingsDir: dir, LockTimeout: 5 * time.Second,
		OnCommit: func(h service.Head) { hub.Publish(Change{Name: h.Name, Revision: h.Revision, SHA256: h.SHA256}) }})
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Close()
	other := openService(t, dir)
	var reads atomic.Int32
	read := headReader(mine)
	watch(t, dir, hub, func(ctx context.Context, name string) (Change, error) {
		reads.Add(1)
		return read(ctx, name)
	}, mine.CommittedHere)
	sub := subscribe(t, hub, "flow")
	if _, err := mine.Create(context.Background(), service.CreateRequest{Name: "flow", Elements: rect}); err != nil {
		t.Fatal(err)
	}
	if c := recv(t, sub); c.Revision != 1 {
		t.Fatalf("got %+v", c)
	}
	if _, err := other.Apply(context.Background(), service.ApplyRequest{Name: "flow", ExpectedRevision: 1,
		Operations: []json.RawMessage{json.RawMessage(`{"op":"delete","id":"r"}`)}}); err != nil {
		t.Fatal(err)
	}
	if c := recv(t, sub); c.Revision != 2 {
		t.Fatalf("another process's commit: got %+v", c)
	}
	if n := reads.Load(); n != 1 {
		t.Fatalf("the watcher read the scene %d times; want once (the other process's commit)", n)
	}
}
