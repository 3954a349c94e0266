package store_test

import (
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

// The file store keeps every promise of the conformance suite.
func TestFileStoreConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, c storetest.Config) store.Backend {
		s, err := store.Open(store.Options{Dir: filepath.Join(t.TempDir(), "drawings"), Codec: c.Codec,
			MaxSceneBytes: c.MaxSceneBytes, Journal: c.Journal, Now: c.Now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	})
}
