package dsh

import (
	"context"
	"errors"
	"fmt"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/app/loader"
	"github.com/dshgo/dsh/internal/kernel"
	"github.com/dshgo/dsh/plugins/admin"
	"github.com/dshgo/dsh/plugins/database"
	"github.com/dshgo/dsh/plugins/health"
	"github.com/dshgo/dsh/plugins/hostinfo"
	"github.com/dshgo/dsh/plugins/storage"
	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/tools/mcpserve"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Module is the whole host: every kernel module, the web server included.
var Module = fx.Options(HeadlessModule, WebServerModule)

// HeadlessModule is the host without the web server: scopes, services,
// tools (and MCP over stdio), the loader. Plugins that inject webServer
// keep that part pending.
var HeadlessModule = fx.Options(LoggerModule, ConfigModule, RuntimeModule, StorageModule, ConnectionModule, ToolsModule, MetricsModule, TracingModule, HealthModule, LoaderModule)

// ConfigSource says where the YAML config comes from. Supply it with
// fx.Supply, as a value or a pointer (not both); without one the host runs
// on defaults with no plugin entries.
type ConfigSource struct {
	// Path of the YAML file; it is watched and reloaded when it changes.
	Path string
	// YAML is used when Path is empty (tests, embedded defaults).
	YAML []byte
}

// LoadedConfig is the parsed config file, as the kernel modules see it.
type LoadedConfig struct {
	Host    HostConfig
	File    *loader.File
	catalog kernel.Catalog
	Source  ConfigSource
}

// Plugins adds plugins to the catalog that config entries can name.
func Plugins(ps ...app.Plugin) fx.Option {
	opts := make([]fx.Option, 0, len(ps))
	for _, p := range ps {
		opts = append(opts, fx.Provide(fx.Annotate(func() app.Plugin { return p }, fx.ResultTags(`group:"dsh.plugins"`))))
	}
	return fx.Options(opts...)
}

type configIn struct {
	fx.In
	Source  *ConfigSource `optional:"true"`
	Value   ConfigSource  `optional:"true"`
	Plugins []app.Plugin  `group:"dsh.plugins"`
}

// ConfigModule parses the YAML file against the host schema and the
// catalog's plugin schemas.
var ConfigModule = fx.Module("config", fx.Provide(loadConfig))

func loadConfig(in configIn) (*LoadedConfig, error) {
	src := in.Value
	if in.Source != nil {
		if in.Value.Path != "" || in.Value.YAML != nil {
			return nil, errors.New("dsh: both a ConfigSource and a *ConfigSource are supplied; supply one")
		}
		src = *in.Source
	}
	return LoadConfig(src, in.Plugins...)
}

// LoadConfig parses a config as the host would, without starting
// anything (the CLI uses it to find the data directory).
func LoadConfig(src ConfigSource, plugins ...app.Plugin) (*LoadedConfig, error) {
	cat, err := kernel.NewCatalog(plugins...)
	if err != nil {
		return nil, err
	}
	// Startup warnings (clamped numbers, unknown keys) are worth seeing
	// before the configured logger exists.
	bootLog, _ := NewLogger(LogConfig{Level: "warn", Format: "auto"})
	var f *loader.File
	switch {
	case src.Path != "":
		f, err = loader.Load(src.Path, HostSchema, cat, bootLog)
	default:
		f, err = loader.Parse("", src.YAML, HostSchema, cat, bootLog)
	}
	if err != nil {
		return nil, err
	}
	host, err := decodeHost(f.Host, src.Path)
	if err != nil {
		return nil, err
	}
	return &LoadedConfig{Host: host, File: f, catalog: cat, Source: src}, nil
}

// LoggerModule builds the zap logger from the host config and routes fx's
// own events to it at debug level.
var LoggerModule = fx.Options(
	fx.Module("logger", fx.Provide(func(c *LoadedConfig) (*zap.Logger, error) { return NewLogger(c.Host.Log) })),
	fx.WithLogger(func(l *zap.Logger) fxevent.Logger {
		z := &fxevent.ZapLogger{Logger: l.Named("fx")}
		z.UseLogLevel(zapcore.DebugLevel)
		return z
	}),
)

// RuntimeModule holds the scope tree; stopping the app disposes it. The
// root provides the "host" service (data directory, version).
var RuntimeModule = fx.Module("runtime",
	fx.Provide(func(lc fx.Lifecycle, log *zap.Logger) *app.Runtime {
		rt := app.New(app.Options{Logger: log})
		lc.Append(fx.StopHook(func(ctx context.Context) error { return rt.Dispose(ctx) }))
		return rt
	}),
	fx.Invoke(func(rt *app.Runtime, c *LoadedConfig) error {
		return rt.Root().Provide(hostinfo.ServiceName, hostinfo.Info{DataDir: c.Host.DataDir, Version: Version,
			LoginCommand: LoginCommand(c.Source.Path), BaseURL: baseURL(c.Host)})
	}),
)

// StorageModule opens where the host keeps what it keeps (OpenStorage:
// the data directory, or the shared PostgreSQL database when
// host.store.kind is postgres, its schema brought up to date) and
// provides it as the "storage" service; with a database it also provides
// the "database" service. A database that cannot be reached fails the
// start with one error naming the server (never the password); so does
// one a restore stopped half way through (storage.RestoreMarker).
var StorageModule = fx.Module("storage",
	fx.Provide(func(lc fx.Lifecycle, c *LoadedConfig, log *zap.Logger) (*storage.Storage, error) {
		st, err := OpenStorage(context.Background(), c.Host.DataDir, c.Host.Store, log)
		if err != nil {
			return nil, err
		}
		if err := st.CheckRestored(context.Background()); err != nil {
			st.Close()
			return nil, err
		}
		if st.DB() != nil {
			log.Info("store: PostgreSQL", zap.String("database", st.Where()))
		}
		lc.Append(fx.StopHook(st.Close))
		return st, nil
	}),
	fx.Invoke(func(rt *app.Runtime, st *storage.Storage) error {
		if err := rt.Root().Provide(storage.ServiceName, st); err != nil {
			return err
		}
		if st.DB() == nil {
			return nil
		}
		return rt.Root().Provide(database.ServiceName, st.DB())
	}),
)

// LocalToken is a bearer token minted at start for this process's own
// clients (the CLI through the runtime file, tests). It is never stored
// in plain text; it dies with the process.
type LocalToken string

// ConnectionModule provides admission and registers it as the
// "connection" service. Browser sessions are kept in the data directory
// (sessions.json), so restarting the host does not log browsers out;
// stopping it closes the service without wiping them.
var ConnectionModule = fx.Module("connection",
	fx.Provide(func(lc fx.Lifecycle, c *LoadedConfig, st *storage.Storage, log *zap.Logger) (*connection.Service, LocalToken, error) {
		if err := ensureDataDir(c.Host.DataDir); err != nil {
			return nil, "", err
		}
		local, rec, err := connection.MintToken("local")
		if err != nil {
			return nil, "", err
		}
		hosts := append([]string(nil), c.Host.AllowedHosts...)
		people := accounts.Open(accounts.File(c.Host.DataDir), accounts.Options{Logger: log, State: st.State()})
		// Start-up: no caller's context (the backend bounds its queries).
		owner, created, err := people.EnsureOwner(context.Background(), OwnerName(c.Host.Owner))
		if err != nil {
			return nil, "", err
		}
		if created {
			log.Info("owner account created: the login links dsh prints sign in as them", zap.String("owner", owner.Name))
		}
		svc, err := connection.New(connection.Config{
			Accounts:         people,
			State:            st.State(),
			QueryTokenPaths:  []string{mcpserve.Path},
			TrustedProxies:   append([]string(nil), c.Host.TrustedProxy.Addresses...),
			ProxyUserHeader:  c.Host.TrustedProxy.UserHeader,
			ProxyEmailHeader: c.Host.TrustedProxy.EmailHeader,
			AllowedHosts:     hosts,
			AllowedOrigins:   append([]string(nil), c.Host.AllowedOrigins...),
			TokenFile:        TokenFile(c.Host.DataDir),
			Tokens:           append(append([]connection.TokenRecord(nil), c.Host.Tokens...), rec),
			// Browser sessions outlive the process (hashes only, 0600).
			SessionFile:  connection.SessionFile(c.Host.DataDir),
			LoginCommand: LoginCommand(c.Source.Path),
		}, log)
		if err != nil {
			return nil, "", err
		}
		// Another node's revocation cuts this node's open requests and
		// MCP sessions of that credential at once.
		stop, err := st.Listen(context.Background(), svc.Recheck)
		if err != nil {
			svc.Close()
			return nil, "", fmt.Errorf("host.store: %w", err)
		}
		lc.Append(fx.StopHook(stop))
		lc.Append(fx.StopHook(svc.Close))
		return svc, LocalToken(local), nil
	}),
	fx.Invoke(func(rt *app.Runtime, svc *connection.Service) error {
		return rt.Root().Provide(connection.ServiceName, svc)
	}),
)

// OwnerName is the owner account's login name: configured, else the OS
// user's name when it is a valid login name, else "owner".
func OwnerName(configured string) string {
	if configured != "" {
		return configured
	}
	if u, err := user.Current(); err == nil {
		name := strings.ToLower(u.Username)
		if accounts.ValidName(name) == nil {
			return name
		}
	}
	return "owner"
}

// TokenFile is where `dsh token` keeps hashed bearer tokens.
func TokenFile(dataDir string) string { return filepath.Join(dataDir, "tokens.json") }

// ToolsModule provides the tools registry as the "tools" service and its
// MCP server; the /mcp route is a built-in scope that waits for webServer.
// host.mcp bounds both: the arguments of a call (every transport) and the
// Streamable HTTP sessions, in total and per credential, with their idle
// timeout.
var ToolsModule = fx.Module("tools",
	fx.Provide(func(c *LoadedConfig, log *zap.Logger) *tools.Registry {
		reg := tools.NewRegistry(log)
		reg.SetMaxArgumentBytes(c.Host.MCP.MaxArgumentBytes)
		return reg
	}),
	fx.Provide(func(lc fx.Lifecycle, c *LoadedConfig, reg *tools.Registry, log *zap.Logger) *mcpserve.Server {
		m := mcpserve.New(reg, mcpserve.Options{
			Name: "dsh", Version: Version, Logger: log,
			SessionTimeout:      time.Duration(c.Host.MCP.SessionIdleTimeout),
			MaxSessions:         c.Host.MCP.MaxSessions,
			MaxSessionsPerOwner: c.Host.MCP.MaxSessionsPerToken,
			// The web server bounds every body (host.http.maxBodyBytes,
			// answered in JSON); the SDK's own cap must not be smaller.
			MaxRequestBodyBytes: c.Host.HTTP.MaxBodyBytes,
			// Several nodes behind one address: no sessions to pin.
			Stateless:    c.Host.MCP.Stateless(c.Host.Store),
			Tools:        c.Host.MCP.Tools,
			Instructions: c.Host.MCP.Instructions,
		})
		lc.Append(fx.StopHook(m.Close))
		return m
	}),
	fx.Invoke(func(rt *app.Runtime, reg *tools.Registry, m *mcpserve.Server) error {
		if err := rt.Root().Provide(tools.ServiceName, reg); err != nil {
			return err
		}
		_, err := rt.Root().Plugin(mcpserve.Endpoint(m), nil)
		return err
	}),
)

// WebServerModule serves HTTP: it starts echo on the configured address,
// then provides the "webServer" service so that waiting scopes mount.
var WebServerModule = fx.Module("webServer",
	fx.Provide(func(c *LoadedConfig, log *zap.Logger, rt *app.Runtime) *webserver.Server {
		return webserver.New(webserver.Config{
			Listen:          c.Host.Listen,
			MaxBodyBytes:    c.Host.HTTP.MaxBodyBytes,
			DrainTimeout:    time.Duration(c.Host.HTTP.DrainTimeout),
			ShutdownTimeout: time.Duration(c.Host.HTTP.ShutdownTimeout),
			LoginCommand:    LoginCommand(c.Source.Path),
			PublicURL:       c.Host.PublicURL,
		}, log, func() connection.Admitter {
			v, ok := rt.Service(connection.ServiceName)
			if !ok {
				return nil
			}
			a, _ := v.(connection.Admitter)
			return a
		})
	}),
	fx.Invoke(func(lc fx.Lifecycle, c *LoadedConfig, srv *webserver.Server, conn *connection.Service, rt *app.Runtime, ready *health.Registry) {
		lc.Append(fx.Hook{
			OnStart: func(ctx context.Context) error {
				if err := srv.Start(ctx); err != nil {
					return err
				}
				origins := []string{srv.URL()}
				if c.Host.PublicURL != "" {
					origins = append(origins, c.Host.PublicURL)
				}
				conn.SetOrigins(origins...)
				if _, err := srv.MountLogin(conn); err != nil {
					return err
				}
				if _, err := srv.MountStart(); err != nil {
					return err
				}
				return rt.Root().Provide(webserver.ServiceName, srv)
			},
			// /readyz answers 503 from the first moment of the stop.
			OnStop: func(ctx context.Context) error { ready.MarkStopping(); return srv.Shutdown(ctx) },
		})
	}),
)

// LoginCommand is the command line that prints a new login link for a
// host started with the config at path ("" for built-in defaults), as a
// person should type it: the path made absolute and quoted for a shell
// when it needs to be.
func LoginCommand(path string) string {
	if path == "" {
		return "dsh login"
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return "dsh login --config " + shellQuote(path)
}

// shellQuote quotes s for a POSIX shell unless it is made only of
// characters no shell treats specially.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:,@%=", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// LoaderModule loads the config file's entries at start, watches the file
// and serves the admin API (a built-in scope waiting for webServer).
var LoaderModule = fx.Module("loader",
	fx.Provide(func(rt *app.Runtime, c *LoadedConfig, log *zap.Logger) *kernel.Entries {
		return kernel.NewEntries(rt, c.catalog, log)
	}),
	fx.Invoke(func(lc fx.Lifecycle, rt *app.Runtime, c *LoadedConfig, entries *kernel.Entries, log *zap.Logger) {
		var w *loader.Watcher
		lc.Append(fx.Hook{
			OnStart: func(ctx context.Context) error {
				if _, err := rt.Root().Plugin(admin.Plugin(entries, rt), nil); err != nil {
					return err
				}
				if err := entries.LoadFile(ctx, c.File); err != nil {
					// A plugin that fails to load is reported and listed as
					// failed; the host keeps running so it can be fixed live.
					log.Error("some plugins failed to load", zap.Error(err))
				}
				if c.Source.Path == "" {
					return nil
				}
				var err error
				w, err = loader.Watch(context.Background(), c.File, HostSchema, c.catalog, entries, log, loader.WatchOptions{})
				if err != nil {
					return fmt.Errorf("watch %s: %w", c.Source.Path, err)
				}
				return nil
			},
			OnStop: func(ctx context.Context) error {
				if w != nil {
					_ = w.Close()
				}
				return entries.DisposeAll(ctx)
			},
		})
	}),
)
