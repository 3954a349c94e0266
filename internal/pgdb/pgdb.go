// Package pgdb opens dsh's PostgreSQL database: a connection pool that
// reconnects by itself, the schema brought up to date at start by the
// embedded migrations (goose, under an advisory lock so nodes starting
// together take turns), and the one error a caller shows when the
// database cannot be reached.
package pgdb

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations/*.sql
var migrations embed.FS

// VersionTable is where goose records which migrations ran.
const VersionTable = "dsh_schema_version"

// Options configure Open.
type Options struct {
	// DSN is a PostgreSQL connection string (URL or key=value form).
	DSN string
	// ConnectTimeout bounds the first connection (default 10s): a server
	// that cannot be reached fails Open with ErrUnreachable instead of
	// hanging the start.
	ConnectTimeout time.Duration
	// MaxConns caps the pool (0: pgx's default, the larger of 4 and the
	// number of CPUs).
	MaxConns int32
	// Tracer, when set, is told of the pool's statements (pgx's
	// ConnConfig.Tracer: database.Tracer makes them spans).
	Tracer pgx.QueryTracer
}

// ErrUnreachable is what Open and every query return (wrapped) when the
// server does not answer: not running, wrong address, a network cut.
var ErrUnreachable = errors.New("the database cannot be reached")

// Open connects, checks the server answers, and applies the migrations.
func Open(ctx context.Context, o Options) (*pgxpool.Pool, error) {
	if o.DSN == "" {
		return nil, errors.New("pgdb: no DSN")
	}
	cfg, err := pgxpool.ParseConfig(o.DSN)
	if err != nil {
		// pgx's message quotes the DSN's password on some mistakes.
		return nil, fmt.Errorf("pgdb: the DSN does not parse (check its form: postgres://user:password@host:5432/db)")
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 10 * time.Second
	}
	cfg.ConnConfig.ConnectTimeout = o.ConnectTimeout
	if o.MaxConns > 0 {
		cfg.MaxConns = o.MaxConns
	}
	cfg.ConnConfig.Tracer = o.Tracer
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgdb: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, o.ConnectTimeout)
	err = pool.Ping(pctx)
	cancel()
	if err != nil {
		pool.Close()
		return nil, Describe(err, cfg.ConnConfig.Host, cfg.ConnConfig.Port)
	}
	if err := Migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// UnreachableError is a server that did not answer: where it was looked
// for and why it did not answer, never the password. It is ErrUnreachable
// (errors.Is).
type UnreachableError struct {
	// Addr is the server's host:port.
	Addr string
	// Cause is the reason in a few words ("connection refused").
	Cause string
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("%s at %s (%s)", ErrUnreachable, e.Addr, e.Cause)
}

// Unwrap makes the error ErrUnreachable.
func (e *UnreachableError) Unwrap() error { return ErrUnreachable }

// Describe turns a connection failure into an *UnreachableError naming the
// server (never the password), and passes other errors through.
func Describe(err error, host string, port uint16) error {
	if Unreachable(err) {
		return &UnreachableError{Addr: net.JoinHostPort(host, strconv.Itoa(int(port))), Cause: cause(err)}
	}
	return fmt.Errorf("pgdb: %w", err)
}

// cause is the root of a connection failure in a few words ("connection
// refused"), not pgx's every attempt.
func cause(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		var sys *os.SyscallError
		if errors.As(op.Err, &sys) && sys.Err != nil {
			return sys.Err.Error()
		}
		return op.Err.Error()
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}

// Unreachable reports whether err is the server not answering (as opposed
// to a query it refused): a connection that could not be made or broke
// (closed under a query, cut mid-answer), a server shutting down, or too
// many connections.
func Unreachable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnreachable) {
		return true
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	// A pooled connection the server (or the network) closed: the
	// next one will tell whether the server is there.
	if errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
		// cannot_connect_now, 53300 too_many_connections, class 08:
		// connection exceptions.
		switch pe.Code {
		case "57P01", "57P02", "57P03", "53300":
			return true
		}
		return len(pe.Code) == 5 && pe.Code[:2] == "08"
	}
	return pgconn.SafeToRetry(err) || errors.Is(err, net.ErrClosed)
}

// Migrate applies the embedded migrations not yet applied, one node at a
// time (a session advisory lock).
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	p, err := provider(db)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("pgdb: migrate: %w", err)
	}
	return nil
}

// MigrateTo applies the embedded migrations up to version, as Migrate
// does: for tests that write rows in an earlier schema's shape.
func MigrateTo(ctx context.Context, pool *pgxpool.Pool, version int64) error {
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	p, err := provider(db)
	if err != nil {
		return err
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		return fmt.Errorf("pgdb: migrate to %d: %w", version, err)
	}
	return nil
}

// Version is the schema's migration version (0: none applied).
func Version(ctx context.Context, pool *pgxpool.Pool) (int64, error) {
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	p, err := provider(db)
	if err != nil {
		return 0, err
	}
	return p.GetDBVersion(ctx)
}

// Pending reports whether some embedded migration is not applied yet.
func Pending(ctx context.Context, pool *pgxpool.Pool) (bool, error) {
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	p, err := provider(db)
	if err != nil {
		return false, err
	}
	return p.HasPending(ctx)
}

func provider(db *sql.DB) (*goose.Provider, error) {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(goose.DialectPostgres, db, sub,
		goose.WithTableName(VersionTable), goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
}

// Where names the pool's server and database (host:port/db), without
// the password, for logs.
func Where(pool *pgxpool.Pool) string {
	c := pool.Config().ConnConfig
	return fmt.Sprintf("%s:%d/%s", c.Host, c.Port, c.Database)
}
