package pgtest

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/dshgo/dsh/internal/testkit/testenv"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// Each test gets a database of its own on a real server: what one
// writes, another does not see.
func TestDatabasesAreFreshAndApart(t *testing.T) {
	ctx := context.Background()
	a, b := DSN(t), DSN(t)
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE scenes (name text PRIMARY KEY, revision bigint)"); err != nil {
		t.Fatal(err)
	}
	if _, err := ca.Exec(ctx, "INSERT INTO scenes VALUES ('plan', 1)"); err != nil {
		t.Fatal(err)
	}
	var rev int64
	if err := ca.QueryRow(ctx, "SELECT revision FROM scenes WHERE name = 'plan'").Scan(&rev); err != nil || rev != 1 {
		t.Fatalf("read back: %d %v", rev, err)
	}
	var n int
	if err := cb.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 'scenes'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the other database sees the table: %d %v", n, err)
	}
	var version string
	if err := ca.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	t.Logf("PostgreSQL %s", version)
}

// Terminate ends the other sessions on a database: a connection made
// before it fails its next query, a new one works.
func TestTerminate(t *testing.T) {
	ctx := context.Background()
	dsn := DSN(t)
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	Terminate(t, dsn)
	if _, err := c.Exec(ctx, "SELECT 1"); err == nil {
		t.Fatal("a terminated session still answers")
	}
	again, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close(ctx)
	if _, err := again.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
}

// Restart takes the server down (nothing connects while whileDown runs)
// and brings it back with what was committed.
func TestRestart(t *testing.T) {
	ctx := context.Background()
	dsn := DSN(t)
	if err := Restartable(); err != nil {
		testenv.Missing(t, err.Error())
	}
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)"); err != nil {
		t.Fatal(err)
	}
	ran := false
	Restart(t, func() {
		ran = true
		if c, err := pgx.Connect(ctx, dsn); err == nil {
			c.Close(ctx)
			t.Error("connected while the server was down")
		}
	})
	if !ran {
		t.Fatal("whileDown did not run")
	}
	if _, err := c.Exec(ctx, "SELECT 1"); err == nil {
		t.Fatal("a session from before the restart still answers")
	}
	after, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close(ctx)
	var n int
	if err := after.QueryRow(ctx, "SELECT n FROM kept").Scan(&n); err != nil || n != 7 {
		t.Fatalf("after the restart: %d %v", n, err)
	}
}

// Restart refuses a server DSH_PG_DSN names: it is someone else's.
func TestRestartableRefusesAnOutsideServer(t *testing.T) {
	t.Setenv(EnvDSN, "postgres://elsewhere/db")
	if err := Restartable(); err == nil || !strings.Contains(err.Error(), EnvDSN) {
		t.Fatalf("Restartable() = %v", err)
	}
}
