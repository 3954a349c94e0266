package pgdb

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

// Pending is true on a database an earlier schema left (what /readyz's
// migrations check reports) and false once every migration ran.
func TestPending(t *testing.T) {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := MigrateTo(ctx, pool, 1); err != nil {
		t.Fatal(err)
	}
	if pending, err := Pending(ctx, pool); err != nil || !pending {
		t.Fatalf("at version 1: pending %v, %v", pending, err)
	}
	if err := Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	if pending, err := Pending(ctx, pool); err != nil || pending {
		t.Fatalf("migrated: pending %v, %v", pending, err)
	}
}
