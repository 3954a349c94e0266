package boards

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// clock is a fake time source that advances a second per reading.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// newStore is a store in a fresh drawings directory, with a fake clock.
func newStore(t *testing.T) (*Store, *clock) {
	t.Helper()
	c := newClock()
	return Open(File(filepath.Join(t.TempDir(), "drawings")), Options{Now: c.Now}), c
}

// A place is where test stores keep their records: a file, or a
// PostgreSQL database, where every store opened is another node with a
// pool of its own.
type place struct {
	path string // the file's
	dsn  string // the database's
}

// eachPlace runs test on a file and on PostgreSQL.
func eachPlace(t *testing.T, test func(t *testing.T, pl place)) {
	t.Run("file", func(t *testing.T) {
		test(t, place{path: File(filepath.Join(t.TempDir(), "drawings"))})
	})
	t.Run("postgres", func(t *testing.T) { test(t, place{dsn: pgtest.DSN(t)}) })
}

// open is a store at pl with a fake clock.
func (pl place) open(t *testing.T) (*Store, *clock) {
	c := newClock()
	return pl.again(t, c), c
}

// again is another store at pl (another process, another node) on c.
func (pl place) again(t *testing.T, c *clock) *Store {
	t.Helper()
	opts := Options{Now: c.Now}
	if pl.dsn != "" {
		pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: pl.dsn})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		opts.State = pgstate.New(pool, pgstate.Options{})
	}
	return Open(pl.path, opts)
}

// wantCode fails unless err is a *sceneerr.Error with code.
func wantCode(t *testing.T, err error, code sceneerr.Code) *sceneerr.Error {
	t.Helper()
	var e *sceneerr.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("error %v, want code %s", err, code)
	}
	return e
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
