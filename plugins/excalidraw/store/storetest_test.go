package store_test

import (
	"path/filepath"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

// The file store keeps every promise of the conformance suite.
func TestFileStoreConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Backend {
		s, err := store.Open(store.Options{Dir: filepath.Join(t.TempDir(), "drawings"), Codec: storetest.Codec{}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	})
}
