package excalidraw

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/plugins/health"
)

// useReadiness registers the plugin's readiness checks, each an effect:
// its store reachable (the drawings directory there, or the database
// answering) and, on the database, every migration applied.
func useReadiness(ctx *app.Context, st *Stores) error {
	db := st.Storage.DB()
	if db == nil {
		return health.Use(ctx, health.Check{Name: "excalidraw.store", Probe: func(context.Context) error {
			return dirReachable(st.Drawings)
		}})
	}
	if err := health.Use(ctx, health.Check{Name: "excalidraw.store", Probe: func(c context.Context) error {
		if db.Pool.Ping(c) != nil {
			return errors.New("the database " + db.Where + " does not answer")
		}
		return nil
	}}); err != nil {
		return err
	}
	return health.Use(ctx, health.Check{Name: "excalidraw.migrations", Probe: func(c context.Context) error {
		pending, err := pgdb.Pending(c, db.Pool)
		switch {
		case err != nil:
			return errors.New("the schema version of " + db.Where + " cannot be read")
		case pending:
			return errors.New("migrations are not all applied (dsh store migrate, or start a node of this version)")
		}
		return nil
	}})
}

// dirReachable fails when the drawings directory (the scene store made
// it when it opened) is not a directory one can stat; the reason names
// no path.
func dirReachable(dir string) error {
	fi, err := os.Stat(dir)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return errors.New("the drawings directory: " + pe.Err.Error())
	case err != nil:
		return errors.New("the drawings directory cannot be read")
	case !fi.IsDir():
		return errors.New("the drawings directory is not a directory")
	}
	return nil
}
