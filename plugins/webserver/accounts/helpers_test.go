package accounts

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alexedwards/argon2id"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/webserver/apierr"
)

// testParams make hashing cheap; the rules under test do not depend on
// the cost.
var testParams = argon2id.Params{Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// clock is a settable clock, safe for concurrent use.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// testStore is a store on path with cheap hashing and clk, counting the
// password comparisons it makes.
type testStore struct {
	*Store
	compares atomic.Int64
}

func openTest(t *testing.T, path string, clk *clock) *testStore {
	t.Helper()
	return openAt(t, place{path: path}, clk)
}

// A place is where test stores keep the accounts: a file, or a
// PostgreSQL database, where each store opened is another node with a
// pool of its own.
type place struct{ path, dsn string }

// eachPlace runs test on a file and on PostgreSQL.
func eachPlace(t *testing.T, test func(t *testing.T, pl place)) {
	t.Run("file", func(t *testing.T) { test(t, place{path: tempPath(t)}) })
	t.Run("postgres", func(t *testing.T) { test(t, place{dsn: pgtest.DSN(t)}) })
}

// fresh is another, empty place of the same kind.
func (pl place) fresh(t *testing.T) place {
	if pl.dsn != "" {
		return place{dsn: pgtest.DSN(t)}
	}
	return place{path: tempPath(t)}
}

// openAt is a store at pl with cheap hashing and clk, counting the
// password comparisons it makes.
func openAt(t *testing.T, pl place, clk *clock) *testStore {
	t.Helper()
	opts := Options{Now: clk.Now, HashParams: &testParams}
	if pl.dsn != "" {
		pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: pl.dsn})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		opts.State = pgstate.New(pool, pgstate.Options{})
	}
	s := &testStore{Store: Open(pl.path, opts)}
	compare := s.compare
	s.compare = func(password, hash string) (bool, error) {
		s.compares.Add(1)
		return compare(password, hash)
	}
	return s
}

func tempPath(t *testing.T) string { return File(filepath.Join(t.TempDir(), "data")) }

// codeOf is the Coded error's code, "" for none.
func codeOf(err error) string {
	if c, ok := apierr.As(err); ok {
		return c.ErrorCode()
	}
	return ""
}

func wantCode(t *testing.T, err error, code string) *Error {
	t.Helper()
	if codeOf(err) != code {
		t.Fatalf("err = %v, want code %s", err, code)
	}
	return err.(*Error)
}
