package quota

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// eachWindows runs test on windows in memory and in PostgreSQL; node opens
// the windows as another node would (memory: the same ones).
func eachWindows(t *testing.T, test func(t *testing.T, node func() statefile.Windows)) {
	t.Run("memory", func(t *testing.T) {
		w := statefile.NewMemoryWindows()
		test(t, func() statefile.Windows { return w })
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.DSN(t)
		test(t, func() statefile.Windows {
			pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: dsn})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(pool.Close)
			return pgstate.New(pool, pgstate.Options{}).Windows()
		})
	})
}

// The window slides: the fourth use in an hour waits for the first to
// leave it, subjects are counted apart, a use given back no longer
// counts. With shared windows, two nodes count against the one limit.
func TestSlidingWindow(t *testing.T) {
	eachWindows(t, func(t *testing.T, node func() statefile.Windows) {
		c := &clock{t: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
		a, b := NewIn(node(), c.now, nil), NewIn(node(), c.now, nil)
		r := Rule{Name: "createBoard", Limit: 3, Window: time.Hour}
		for i, l := range []*Limiter{a, b, a} {
			if err := l.Take(t.Context(), r, "tok_a"); err != nil {
				t.Fatalf("take %d: %v", i, err)
			}
			c.t = c.t.Add(10 * time.Minute)
		}
		// 10:30: three uses at 10:00, 10:10, 10:20; the fourth waits for
		// 10:00 to leave the window at 11:00.
		for _, l := range []*Limiter{a, b} {
			err := l.Take(t.Context(), r, "tok_a")
			e, ok := err.(*sceneerr.Error)
			if !ok || e.Code != sceneerr.RateLimited || e.Details["retryAfterSec"] != 1800 || e.Details["retryable"] != true {
				t.Fatalf("fourth take: %#v", err)
			}
			if e.Code.Status() != 429 {
				t.Fatalf("status %d", e.Code.Status())
			}
		}
		if err := a.Take(t.Context(), r, "tok_b"); err != nil {
			t.Fatalf("another subject is not limited: %v", err)
		}
		u := b.Usage(t.Context(), r, "tok_a")
		if u.Used != 3 || u.Limit != 3 || u.ResetAt == nil || !u.ResetAt.Equal(time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)) {
			t.Fatalf("usage %+v", u)
		}
		c.t = time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)
		if err := b.Take(t.Context(), r, "tok_a"); err != nil {
			t.Fatalf("after the oldest left the window: %v", err)
		}
		if u := a.Usage(t.Context(), r, "tok_a"); u.Used != 3 {
			t.Fatalf("usage after refill %+v", u)
		}
		a.GiveBack(t.Context(), r, "tok_a")
		if u := b.Usage(t.Context(), r, "tok_a"); u.Used != 2 {
			t.Fatalf("usage after give back %+v", u)
		}
		c.t = c.t.Add(2 * time.Hour)
		if u := a.Usage(t.Context(), r, "tok_a"); u.Used != 0 || u.ResetAt != nil {
			t.Fatalf("usage after the window %+v", u)
		}
	})
}

// The zero-argument constructor still counts in memory.
func TestNew(t *testing.T) {
	l := New(nil)
	r := Rule{Name: "x", Limit: 1, Window: time.Hour}
	if err := l.Take(t.Context(), r, "s"); err != nil {
		t.Fatal(err)
	}
	if err := l.Take(t.Context(), r, "s"); sceneerr.CodeOf(err) != sceneerr.RateLimited {
		t.Fatalf("second take: %v", err)
	}
}

// Uses that cannot be counted are refused, not let through.
func TestUnreachableRefuses(t *testing.T) {
	pool, err := pgxpool.New(context.Background(), "postgres://dsh@127.0.0.1:1/dsh?sslmode=disable&connect_timeout=3")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	l := NewIn(pgstate.New(pool, pgstate.Options{}).Windows(), nil, nil)
	err = l.Take(t.Context(), CreateBoard, "tok_a")
	if sceneerr.CodeOf(err) != sceneerr.IOError {
		t.Fatalf("Take = %v, want io_error", err)
	}
	if u := l.Usage(t.Context(), CreateBoard, "tok_a"); u.Used != 0 || u.Limit != CreateBoard.Limit {
		t.Fatalf("Usage = %+v", u)
	}
	l.GiveBack(t.Context(), CreateBoard, "tok_a") // logged, no panic
}
