package pgstore

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// openPool opens a pool on dsn (migrated), closed when t ends.
func openPool(t testing.TB, dsn string) *pgxpool.Pool {
	t.Helper()
	pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// openStore opens a Store on pool, closed when t ends.
func openStore(t testing.TB, pool *pgxpool.Pool, o Options) *Store {
	t.Helper()
	o.Pool = pool
	if o.Codec == nil {
		o.Codec = storetest.Codec{}
	}
	s, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// The PostgreSQL store keeps the promises the file store keeps.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, c storetest.Config) store.Backend {
		return openStore(t, openPool(t, pgtest.DSN(t)), Options{Codec: c.Codec, Now: c.Now, Journal: c.Journal, MaxSceneBytes: c.MaxSceneBytes})
	})
}
