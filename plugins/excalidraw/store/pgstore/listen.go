package pgstore

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/pgdb"
)

// ListenerOptions configure a Listener (pgdb's, on Channel).
type ListenerOptions = pgdb.ListenerOptions

// Listener follows the commits of every node on a database (pgdb's
// Listener on Channel, its payloads read as commits).
type Listener struct {
	l   *pgdb.Listener
	log *zap.Logger
}

// NewListener is a Listener on pool's database, connecting as the pool
// does.
func NewListener(pool *pgxpool.Pool, o ListenerOptions) *Listener {
	log := o.Logger
	if log == nil {
		log = zap.NewNop()
	}
	return &Listener{l: pgdb.NewListener(pool, Channel, o), log: log}
}

// Run listens until ctx ends, then returns ctx's error, leaving no
// goroutine or connection behind. It calls onCommit with each commit's
// scene and revision (this node's own too: CommittedHere tells them),
// and onResync (if not nil) once after each connect, the first
// included, once LISTEN is in place: a commit made while there was no
// connection was not notified, so the caller re-reads what it follows
// then (see pgdb.Listener.Run).
//
// A scene's revisions reach onCommit in the order they committed (its
// commits queue on its row, and PostgreSQL notifies in commit order), so
// they only go up. One may be at or below what onResync has just read,
// when it committed while the resync listed: the caller keeps the newest
// it has and drops what is not newer (live.Hub does).
func (l *Listener) Run(ctx context.Context, onCommit func(name string, revision int64), onResync func(ctx context.Context)) error {
	return l.l.Run(ctx, func(p string) {
		name, rev, ok := parsePayload(p)
		if !ok {
			l.log.Warn("commit listener: a notification not of a commit", zap.String("payload", p))
			return
		}
		onCommit(name, rev)
	}, onResync)
}

// parsePayload splits "<name> <revision>".
func parsePayload(p string) (string, int64, bool) {
	name, r, ok := strings.Cut(p, " ")
	rev, err := strconv.ParseInt(r, 10, 64)
	return name, rev, ok && err == nil && name != "" && rev > 0
}
