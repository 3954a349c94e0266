package dsh

import (
	"context"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/metrics"
	"github.com/dshgo/dsh/plugins/storage"
	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/tools/mcpserve"
	"github.com/dshgo/dsh/plugins/webserver"
)

// MetricsConfig is the host's `metrics:` section.
type MetricsConfig struct {
	// Listen, when set, serves GET /metrics alone, without a credential,
	// on this address (metrics.Listener); the host's own address serves
	// it to admins either way.
	Listen string `json:"listen"`
}

// MetricsModule provides the host's metrics (one Prometheus registry per
// host) as the "metrics" service, instruments the tools registry, the MCP
// server, the web server and the PostgreSQL pool (when there is one)
// with it, and serves GET /metrics to admins (a built-in scope waiting
// for webServer), and on host.metrics.listen when set.
var MetricsModule = fx.Module("metrics",
	fx.Provide(metrics.New),
	fx.Invoke(func(rt *app.Runtime, ms *metrics.Service, st *storage.Storage, reg *tools.Registry, m *mcpserve.Server) error {
		if db := st.DB(); db != nil {
			if err := ms.Registerer().Register(db.Collector()); err != nil {
				return err
			}
		}
		if err := reg.Instrument(ms.Registerer()); err != nil {
			return err
		}
		if err := m.Instrument(ms.Registerer()); err != nil {
			return err
		}
		if err := rt.Root().Provide(metrics.ServiceName, ms); err != nil {
			return err
		}
		_, err := rt.Root().Plugin(metrics.Endpoint(ms), nil)
		return err
	}),
	fx.Invoke(func(in struct {
		fx.In
		Metrics *metrics.Service
		Web     *webserver.Server `optional:"true"`
	}) error {
		if in.Web == nil {
			return nil
		}
		return in.Web.Instrument(in.Metrics.Registerer())
	}),
	fx.Invoke(func(lc fx.Lifecycle, c *LoadedConfig, ms *metrics.Service, log *zap.Logger) {
		if c.Host.Metrics.Listen == "" {
			return
		}
		var l *metrics.Listener
		lc.Append(fx.Hook{
			OnStart: func(ctx context.Context) (err error) {
				l, err = ms.Listen(ctx, c.Host.Metrics.Listen, log)
				return err
			},
			OnStop: func(ctx context.Context) error { return l.Close(ctx) },
		})
	}),
)
