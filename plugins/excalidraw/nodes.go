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
// event streams until ctx ends: each commit's notification names the
// scene and revision; unless the hub has published that revision already
// (this node's own commits, which OnCommit published), the head is read
// and published. After every (re)connect it publishes
// every scene's head from one listing, so what was committed while the
// connection was down reaches them too: a node that missed
// notifications catches up.
func followNodes(ctx context.Context, db *database.DB, svc *service.Service, hub *live.Hub, log *zap.Logger) {
	log = log.Named("nodes")
	publish := func(ctx context.Context, name string, rev int64) {
		if hub.Published(name, rev) {
			return // this node's own commit (OnCommit published it), or one already read
		}
		h, err := svc.Head(ctx, name)
		if err != nil {
			log.Debug("reading a scene another node committed", zap.String("name", name), zap.Error(err))
			return
		}
		hub.Publish(httpapi.ChangeOf(h))
	}
	// One listing gives every head: the hub drops what it has seen (this
	// node's own commits too), so nothing is read scene by scene.
	resync := func(ctx context.Context) {
		rows, err := svc.List(ctx)
		if err != nil {
			log.Warn("catching up with other nodes' commits", zap.Error(err))
			return
		}
		for _, r := range rows {
			if r.Valid {
				hub.Publish(httpapi.ChangeOf(service.Head{Name: r.Name, Revision: r.Revision, SHA256: r.SHA256, ElementCount: r.ElementCount,
					UpdatedAt: r.UpdatedAt, UpdatedBy: r.UpdatedBy, UpdatedByName: r.UpdatedByName}))
			}
		}
	}
	l := pgstore.NewListener(db.Pool, pgstore.ListenerOptions{Logger: log})
	if err := l.Run(ctx, func(name string, rev int64) { publish(ctx, name, rev) }, resync); err != nil && ctx.Err() == nil {
		log.Error("no longer hearing other nodes' commits", zap.Error(err))
	}
}
