package excalidraw

import (
	"context"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/database"
	"github.com/dshgo/dsh/plugins/excalidraw/httpapi"
	"github.com/dshgo/dsh/plugins/excalidraw/live"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/excalidraw/store/pgstore"
)

// followNodes brings other nodes' commits to this node's open editors and
// event streams until ctx ends (see follower).
func followNodes(ctx context.Context, db *database.DB, svc *service.Service, hub *live.Hub, log *zap.Logger) {
	f := &follower{hub: hub, head: svc.Head, list: svc.List, log: log.Named("nodes")}
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
