package excalidraw

import (
	"context"
	"encoding/json"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/plugins/database"
	"github.com/dshgo/dsh/plugins/excalidraw/httpapi"
	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/room"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store/pgstore"
	"github.com/jackc/pgx/v5/pgxpool"
)

// followNodes brings other nodes' commits to this node's open editors and
// event streams until ctx ends (see follower).
func followNodes(ctx context.Context, db *database.DB, svc *service.Service, hub *live.Hub, log *zap.Logger, heard func(lag time.Duration)) {
	f := &follower{hub: hub, head: svc.Head, list: svc.List, log: log.Named("nodes"), heard: heard}
	l := pgstore.NewListener(db.Pool, pgstore.ListenerOptions{Logger: f.log})
	if err := l.Run(ctx, func(name string, rev int64) { f.commit(ctx, name, rev) }, f.resync); err != nil && ctx.Err() == nil {
		f.log.Error("no longer hearing other nodes' commits", zap.Error(err))
	}
}

// follower turns the commit listener's calls into hub changes. Each
// commit's notification names the scene and revision; unless the hub has
// published that revision already (this node's own commits, which
// OnCommit published, or one a catch-up brought), the head is read and
// published. After every (re)connect it publishes every scene's head from
// one listing, so what was committed while the connection was down
// reaches the editors too: a node that missed notifications catches up.
//
// A notification queued while the catch-up listed can be older than the
// head the listing brought; the hub is the one place that orders them: it
// publishes a scene's revisions only upwards, so an editor's stream never
// goes back to an older revision, and such a notification costs no read.
type follower struct {
	hub  *live.Hub
	head func(ctx context.Context, name string) (service.Head, error)
	list func(ctx context.Context) ([]service.SceneSummary, error)
	log  *zap.Logger
	// heard, if set, is told how long after another node's commit this
	// node published it (metrics; the nodes' clocks' skew included).
	heard func(lag time.Duration)
}

// commit follows one notification.
func (f *follower) commit(ctx context.Context, name string, rev int64) {
	if f.hub.Published(name, rev) {
		return
	}
	h, err := f.head(ctx, name)
	if err != nil {
		f.log.Debug("reading a scene another node committed", zap.String("name", name), zap.Error(err))
		return
	}
	f.hub.Publish(httpapi.ChangeOf(h))
	if f.heard == nil {
		return
	}
	if at, err := time.Parse(time.RFC3339Nano, h.UpdatedAt); err == nil {
		f.heard(time.Since(at))
	}
}

// resync publishes every scene's head from one listing: the hub drops
// what it has seen (this node's own commits too), so nothing is read
// scene by scene.
func (f *follower) resync(ctx context.Context) {
	rows, err := f.list(ctx)
	if err != nil {
		f.log.Warn("catching up with other nodes' commits", zap.Error(err))
		return
	}
	for _, r := range rows {
		if r.Valid {
			f.hub.Publish(httpapi.ChangeOf(service.Head{Name: r.Name, Revision: r.Revision, SHA256: r.SHA256, ElementCount: r.ElementCount,
				UpdatedAt: r.UpdatedAt, UpdatedBy: r.UpdatedBy, UpdatedByName: r.UpdatedByName}))
		}
	}
}

// roomsChannel is the notification channel the nodes' live rooms talk on.
const roomsChannel = "dsh_rooms"

// maxNotifyBytes is what a notification's payload may hold (PostgreSQL's
// limit is 8,000 bytes): a bigger message (a long stroke) is not relayed,
// and reaches the other nodes with its commit instead.
const maxNotifyBytes = 7900

// roomRelay carries the live rooms between the nodes on one database:
// each message is one notification on roomsChannel, sent from a queue
// (a slow database delays the relay, never a socket) that drops what it
// cannot hold, as the rooms' messages may be lost.
type roomRelay struct {
	pool  *pgxpool.Pool
	queue chan []byte
	log   *zap.Logger
}

func newRoomRelay(db *database.DB, log *zap.Logger) *roomRelay {
	return &roomRelay{pool: db.Pool, queue: make(chan []byte, 4096), log: log.Named("rooms")}
}

var _ room.Relay = (*roomRelay)(nil)

func (r *roomRelay) Publish(_ context.Context, m room.RelayMessage) (bool, error) {
	b, err := json.Marshal(m)
	if err != nil || len(b) > maxNotifyBytes {
		return false, err
	}
	select {
	case r.queue <- b:
		return true, nil
	default:
		return false, nil
	}
}

// send notifies what Publish queued until ctx ends.
func (r *roomRelay) send(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case b := <-r.queue:
			if _, err := r.pool.Exec(ctx, `SELECT pg_notify('`+roomsChannel+`', $1::text)`, string(b)); err != nil && ctx.Err() == nil {
				r.log.Debug("relaying a room message to the other nodes", zap.Error(err))
			}
		}
	}
}

// hear hands the other nodes' room messages to rooms until ctx ends.
func (r *roomRelay) hear(ctx context.Context, rooms *room.Server) {
	l := pgdb.NewListener(r.pool, roomsChannel, pgdb.ListenerOptions{Logger: r.log})
	if err := l.Run(ctx, func(payload string) { rooms.Relayed([]byte(payload)) }, nil); err != nil && ctx.Err() == nil {
		r.log.Error("no longer hearing other nodes' rooms", zap.Error(err))
	}
}
