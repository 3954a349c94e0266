package pgstore

import (
	"context"
	"os"
	"testing"

	"github.com/dshgo/dsh/internal/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// The PostgreSQL store keeps the promises the file store keeps.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Backend {
		s, err := Open(context.Background(), Options{DSN: pgtest.DSN(t), Codec: storetest.Codec{}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	})
}
