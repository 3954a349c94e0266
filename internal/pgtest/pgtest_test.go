package pgtest

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
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
