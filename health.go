package dsh

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"go.uber.org/fx"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/kernel"
	"github.com/dshgo/dsh/plugins/health"
	"github.com/dshgo/dsh/plugins/storage"
)

// HealthModule provides the readiness checks' registry as the "health"
// service with the host's own checks (every configured plugin active, the
// storage reachable) and the /readyz route (a built-in scope waiting for
// webServer).
var HealthModule = fx.Module("health",
	fx.Provide(health.New),
	fx.Invoke(func(rt *app.Runtime, reg *health.Registry, st *storage.Storage, entries *kernel.Entries) error {
		if err := rt.Root().Provide(health.ServiceName, reg); err != nil {
			return err
		}
		for _, c := range []health.Check{
			{Name: "plugins", Probe: func(context.Context) error { return pluginsActive(entries) }},
			{Name: "storage", Probe: func(ctx context.Context) error { return storageReachable(ctx, st) }},
		} {
			if _, err := reg.Register(c); err != nil {
				return err
			}
		}
		_, err := rt.Root().Plugin(health.Endpoint(reg), nil)
		return err
	}),
)

// pluginsActive fails naming every entry of the config that is not
// disabled and not active (unloaded, pending, failed).
func pluginsActive(entries *kernel.Entries) error {
	var off []string
	for _, e := range entries.List() {
		if e.Disabled || e.State == "active" {
			continue
		}
		off = append(off, fmt.Sprintf("%s (%s) is %s", e.ID, e.Plugin, e.State))
	}
	if len(off) == 0 {
		return nil
	}
	return errors.New("plugin " + strings.Join(off, ", "))
}

// storageReachable pings the shared database, or finds the data
// directory. The reason names neither a password nor a path.
func storageReachable(ctx context.Context, st *storage.Storage) error {
	if db := st.DB(); db != nil {
		if err := db.Pool.Ping(ctx); err != nil {
			return fmt.Errorf("the database %s does not answer", db.Where)
		}
		return nil
	}
	fi, err := os.Stat(st.DataDir())
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return fmt.Errorf("the data directory: %v", pe.Err)
	case err != nil:
		return errors.New("the data directory cannot be read")
	case !fi.IsDir():
		return errors.New("the data directory is not a directory")
	}
	return nil
}
