package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// The documents a service keeps to make writes cheap (docCache, sealed
// forks) are never taken for the scene when the file says otherwise: a
// write always edits what is on disk. Each case warms the cache with a
// write, changes the scene behind the service's back, and checks that
// the next write holds both that change and its own.

// cacheScene is a service with scene "s" of boxes r0..r3, written twice
// so that its cache holds a sealed document of the current bytes.
func cacheScene(t *testing.T) (*Service, string) {
	t.Helper()
	s, dir := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "s", Elements: raws(rects(4)...)}); err != nil {
		t.Fatal(err)
	}
	moveBox(t, s, "r0", 10)
	return s, dir
}

// moveBox sets the x of a box at the current revision.
func moveBox(t *testing.T, s *Service, id string, x int) {
	t.Helper()
	h, err := s.Head(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	op := json.RawMessage(fmt.Sprintf(`{"op":"update","id":%q,"patch":{"x":%d}}`, id, x))
	if _, err := s.Apply(ctx, ApplyRequest{Name: "s", ExpectedRevision: h.Revision, Operations: []json.RawMessage{op}}); err != nil {
		t.Fatal(err)
	}
}

// onDisk reads member k of each box in the file, bypassing the service.
func onDisk(t *testing.T, dir, k string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "s.excalidraw"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := scene.Parse(data, scene.Limits{}.ForReading())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for _, el := range doc.Elements() {
		id, _ := el.String("id")
		v, _ := el.Get(k)
		out[id] = fmt.Sprint(v)
	}
	return out
}

func wantOnDisk(t *testing.T, dir, k string, want map[string]string) {
	t.Helper()
	got := onDisk(t, dir, k)
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s.%s = %v on disk, want %s", id, k, got[id], w)
		}
	}
}

func TestCacheFollowsAnotherWriter(t *testing.T) {
	a, dir := cacheScene(t)
	b := openAt(t, dir, scene.Limits{}) // another process: its own store and cache
	moveBox(t, b, "r1", 20)
	moveBox(t, a, "r2", 30)
	wantOnDisk(t, dir, "x", map[string]string{"r0": "10", "r1": "20", "r2": "30"})
	moveBox(t, b, "r3", 40) // and back: b's cache is as stale now
	wantOnDisk(t, dir, "x", map[string]string{"r0": "10", "r1": "20", "r2": "30", "r3": "40"})
}

// A person edits the file in place, keeping its length, right after the
// service wrote it: the inode, the size and likely the timestamps are the
// ones the service saw.
func TestCacheFollowsAHandEditInPlace(t *testing.T) {
	s, dir := cacheScene(t)
	path := filepath.Join(dir, "s.excalidraw")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte(`"strokeColor": "#1e1e1e"`), []byte(`"strokeColor": "#e03131"`), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("no stroke color to edit")
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(edited, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	moveBox(t, s, "r2", 30)
	if got := onDisk(t, dir, "strokeColor"); got["r0"] != "#e03131" {
		t.Errorf("the hand edit was lost: r0 strokeColor %v", got["r0"])
	}
	wantOnDisk(t, dir, "x", map[string]string{"r0": "10", "r2": "30"})
}

func TestCacheFollowsAMissingSidecar(t *testing.T) {
	s, dir := cacheScene(t)
	if err := os.Remove(filepath.Join(dir, ".dsh-excalidraw", "s.meta.json")); err != nil {
		t.Fatal(err)
	}
	moveBox(t, s, "r1", 20)
	wantOnDisk(t, dir, "x", map[string]string{"r0": "10", "r1": "20"})
}

// The scene file is found corrupt and the newest backup too: the store
// restores an older one, and the next write edits that, not the cached
// document of the newer bytes.
func TestCacheFollowsARestoreFromAnOlderBackup(t *testing.T) {
	s, dir := cacheScene(t) // rev 1 (r0 at 0), rev 2 (r0 at 10)
	moveBox(t, s, "r0", 50) // rev 3; backups of 1 and 2
	backups := filepath.Join(dir, ".dsh-excalidraw", "backups")
	if err := os.WriteFile(filepath.Join(backups, "s.2.excalidraw"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s.excalidraw"), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	moveBox(t, s, "r1", 20)
	wantOnDisk(t, dir, "x", map[string]string{"r0": "0", "r1": "20"})
}
