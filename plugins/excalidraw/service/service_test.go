package service

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestNewRefusesSymlinkedRoot(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	_, err := New(Config{DrawingsDir: link})
	wantCode(t, err, sceneerr.PermissionDenied)
}

func TestCloseThenFail(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.List(ctx); err == nil {
		t.Fatal("list after close")
	}
}

// The shared random source is safe under concurrent writes to different
// scenes (run with -race).
func TestConcurrentCreatesShareRand(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b", "c", "d"} {
		wg.Go(func() {
			if _, err := s.Create(ctx, CreateRequest{Name: name, Elements: flowInputs()}); err != nil {
				t.Error(err)
			}
			if _, err := s.Apply(ctx, ApplyRequest{Name: name, ExpectedRevision: 1, Operations: raws(`{"op":"update","id":"a","patch":{"x":3}}`)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}
