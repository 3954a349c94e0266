// Package database is the "database" service: the PostgreSQL database
// every dsh node of one deployment shares when host.store.kind is
// postgres. Plugins inject it (app.Maybe) and keep their data in it
// instead of the data directory; without it they use files.
package database

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/statefile/pgstate"
)

// ServiceName is the name the host provides a *DB under.
const ServiceName = "database"

// DB is the shared database: a pool whose schema the host brought up to
// date at start (internal/pgdb's migrations).
type DB struct {
	// Pool is the connection pool; it reconnects by itself, so a query
	// while the server is down fails (pgdb.Unreachable) and one after it
	// is back succeeds.
	Pool *pgxpool.Pool
	// Where names the server (host:port/database, never the password),
	// for logs and messages.
	Where string
	// State holds the small shared documents (tokens, sessions, people,
	// boards, OAuth clients) and rate-limit windows on Pool.
	State *pgstate.Backend
}
