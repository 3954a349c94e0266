package pgdb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// Open brings an empty database to the newest schema, and two nodes
// starting at once on it take turns: both succeed, each migration ran once.
func TestOpenMigratesOnce(t *testing.T) {
	dsn := pgtest.DSN(t)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := Open(context.Background(), Options{DSN: dsn})
			if err == nil {
				p.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	p, err := Open(context.Background(), Options{DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	v, err := Version(context.Background(), p)
	if err != nil || v < 1 {
		t.Fatalf("version %d, %v", v, err)
	}
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := p.QueryRow(context.Background(), `SELECT count(*) FROM `+VersionTable+` WHERE version_id > 0`).Scan(&n); err != nil || n != len(files) {
		t.Fatalf("%d migration rows for %d migrations (%v): each must run once", n, len(files), err)
	}
}

// A server that is not there fails Open quickly with ErrUnreachable,
// naming where it looked and never the password.
func TestOpenUnreachable(t *testing.T) {
	_, err := Open(context.Background(), Options{DSN: "postgres://dsh:s3cret@127.0.0.1:1/dsh?sslmode=disable", ConnectTimeout: 3 * time.Second})
	if !errors.Is(err, ErrUnreachable) || !Unreachable(err) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	if !strings.Contains(err.Error(), "127.0.0.1:1") || strings.Contains(err.Error(), "s3cret") {
		t.Fatalf("message %q: should name the server, not the password", err)
	}
	// The parts, for a command line's one-line message.
	var down *UnreachableError
	if !errors.As(err, &down) || down.Addr != "127.0.0.1:1" || down.Cause != "connection refused" {
		t.Fatalf("err = %#v, want an *UnreachableError at 127.0.0.1:1, connection refused", err)
	}
}

// A DSN that does not parse is refused without echoing it.
func TestOpenBadDSN(t *testing.T) {
	_, err := Open(context.Background(), Options{DSN: "postgres://u:pw@host:notaport/db"})
	if err == nil || strings.Contains(err.Error(), "pw") {
		t.Fatalf("err = %v", err)
	}
}

// A pooled connection closed under a query, or cut mid-answer, is the
// server not answering (the next connection will tell), as a refused
// dial is; a query the server refused is not.
func TestUnreachableKinds(t *testing.T) {
	for _, err := range []error{fmt.Errorf("query: %w", pgconn.ErrConnClosed), io.ErrUnexpectedEOF, ErrUnreachable} {
		if !Unreachable(err) {
			t.Errorf("%v: not unreachable", err)
		}
	}
	for _, err := range []error{&pgconn.PgError{Code: "23505"}, errors.New("boom"), context.Canceled} {
		if Unreachable(err) {
			t.Errorf("%v: unreachable", err)
		}
	}
}
