package pgstate_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/internal/statefile/statefiletest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

// pgtestM runs the tests through pgtest.Main, so goleak checks what is
// left after the throwaway cluster stopped.
type pgtestM struct{ m *testing.M }

func (p pgtestM) Run() int { return pgtest.Main(p.m) }

func TestMain(m *testing.M) { goleak.VerifyTestMain(pgtestM{m}) }

// nodes makes a fresh database for t and returns what opens a node on it:
// a pool of its own and a Backend on it.
func nodes(t *testing.T) func() *pgstate.Backend {
	dsn := pgtest.DSN(t)
	return func() *pgstate.Backend {
		pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: dsn})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		return pgstate.New(pool, pgstate.Options{})
	}
}

func TestConformance(t *testing.T) {
	statefiletest.Run(t, func(t *testing.T) func() statefile.Backend {
		node := nodes(t)
		return func() statefile.Backend { return node() }
	})
}

func TestWindowsConformance(t *testing.T) {
	statefiletest.RunWindows(t, func(t *testing.T) func() statefile.Windows {
		node := nodes(t)
		return func() statefile.Windows { return node().Windows() }
	})
}

// Every node hears of every committed change, its own included; a change
// that writes nothing, or fails, sends no notice.
func TestListen(t *testing.T) {
	node := nodes(t)
	a, b := node(), node()
	heard := make(chan string, 16)
	stop, err := a.Listen(context.Background(), func(name string) { heard <- name })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	write := func(be *pgstate.Backend, name string, write bool) {
		t.Helper()
		err := be.Doc(name).Update(context.Background(), func([]byte) ([]byte, bool, error) { return []byte("{}"), write, nil })
		if err != nil {
			t.Fatal(err)
		}
	}
	write(b, "quiet", false)
	write(b, "tokens", true)
	write(a, "sessions", true)
	for _, want := range []string{"tokens", "sessions"} {
		select {
		case got := <-heard:
			if got != want {
				t.Fatalf("heard %q, want %q (a change that wrote nothing was announced?)", got, want)
			}
		case <-time.After(time.Minute):
			t.Fatalf("no notice of %q", want)
		}
	}
}

// A server that cannot be reached fails every call with an error that is
// pgdb.ErrUnreachable and names the server, and a view of it fails closed.
func TestUnreachable(t *testing.T) {
	cfg, err := pgxpool.ParseConfig("postgres://dsh:s3cret@127.0.0.1:1/dsh?sslmode=disable&connect_timeout=3")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	b := pgstate.New(pool, pgstate.Options{Timeout: 5 * time.Second})
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, pgdb.ErrUnreachable) || !pgdb.Unreachable(err) {
			t.Fatalf("%s: %v, want ErrUnreachable", what, err)
		}
		if !strings.Contains(err.Error(), "127.0.0.1:1") || strings.Contains(err.Error(), "s3cret") {
			t.Fatalf("%s: %q should name the server, not the password", what, err)
		}
	}
	d := b.Doc("tokens")
	_, _, _, err = d.Fetch(context.Background(), nil)
	check("Fetch", err)
	called := false
	err = d.Update(context.Background(), func([]byte) ([]byte, bool, error) { called = true; return nil, true, nil })
	check("Update", err)
	if called {
		t.Fatal("the change ran without its document")
	}
	_, err = statefile.ViewOf(d, func(string, []byte) (int, error) { return 1, nil }, nil).Load(context.Background())
	check("View.Load", err)
	_, _, err = b.Windows().Take(context.Background(), "k", time.Now(), 5, time.Hour)
	check("Take", err)
	_, _, err = b.Windows().Count(context.Background(), "k", time.Now(), time.Hour)
	check("Count", err)
	_, err = b.Listen(context.Background(), func(string) {})
	check("Listen", err)
}

// A listener whose connection is cut listens again, says so with a notice
// of "" (it may have missed some), and hears the changes after.
func TestListenReconnects(t *testing.T) {
	dsn := pgtest.DSN(t)
	pool, err := pgdb.Open(context.Background(), pgdb.Options{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	b := pgstate.New(pool, pgstate.Options{})
	heard := make(chan string, 16)
	stop, err := b.Listen(context.Background(), func(name string) { heard <- name })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var cut int
	err = pool.QueryRow(context.Background(),
		`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN `+pgstate.Channel+`'`).Scan(&cut)
	if err != nil || cut != 1 {
		t.Fatalf("cut %d listeners (%v), want 1", cut, err)
	}
	wait := func(want string) {
		t.Helper()
		select {
		case got := <-heard:
			if got != want {
				t.Fatalf("heard %q, want %q", got, want)
			}
		case <-time.After(2 * time.Minute):
			t.Fatalf("no notice %q", want)
		}
	}
	wait("")
	if err := b.Doc("tokens").Update(context.Background(), func([]byte) ([]byte, bool, error) { return []byte("{}"), true, nil }); err != nil {
		t.Fatal(err)
	}
	wait("tokens")
}

// A host's file is imported into the shared document once: the second
// node to try finds it there and leaves it.
func TestImportFile(t *testing.T) {
	node := nodes(t)
	files := statefile.Files(t.TempDir())
	ctx := context.Background()
	src := files.Doc("tokens")
	if err := src.Update(ctx, func([]byte) ([]byte, bool, error) { return []byte(`{"tokens":[]}`), true, nil }); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} {
		ok, err := statefile.Import(ctx, node().Doc("tokens"), src)
		if err != nil || ok != want {
			t.Fatalf("import %d: %v %v, want %v", i, ok, err, want)
		}
	}
	data, _, _, err := node().Doc("tokens").Fetch(ctx, nil)
	if err != nil || string(data) != `{"tokens":[]}` {
		t.Fatalf("imported %q %v", data, err)
	}
}
