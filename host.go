package dsh

import (
	"context"
	"errors"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/kernel"
	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/tools/mcpserve"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// Version is the host's version, set at build time with
// -ldflags "-X github.com/dshgo/dsh.Version=…".
var Version = "dev"

// Host is an embedded dsh host: New builds it, Start runs it, Stop
// disposes every plugin and closes the server.
type Host struct {
	fx *fx.App

	Runtime    *app.Runtime
	Tools      *tools.Registry
	MCP        *mcpserve.Server
	Web        *webserver.Server // nil in a headless host
	Connection *connection.Service
	Config     *LoadedConfig
	Log        *zap.Logger
	entries    *kernel.Entries // behind Plugins, LoadPlugin, … (plugins.go)
	token      LocalToken
}

// Option configures New.
type Option func(*options)

type options struct {
	source   *ConfigSource
	plugins  []app.Plugin
	headless bool
	extra    []fx.Option
}

// WithConfigFile reads (and watches) the YAML config at path.
func WithConfigFile(path string) Option {
	return func(o *options) { o.source = &ConfigSource{Path: path} }
}

// WithConfigYAML uses an in-memory config (not watched).
func WithConfigYAML(yaml []byte) Option {
	return func(o *options) { o.source = &ConfigSource{YAML: yaml} }
}

// WithPlugins adds plugins to the catalog config entries can name.
func WithPlugins(ps ...app.Plugin) Option {
	return func(o *options) { o.plugins = append(o.plugins, ps...) }
}

// Headless leaves the web server out.
func Headless() Option { return func(o *options) { o.headless = true } }

// WithFx adds fx options to the graph (extra providers, decorators,
// fx.Replace of the logger).
func WithFx(opts ...fx.Option) Option {
	return func(o *options) { o.extra = append(o.extra, opts...) }
}

type hostIn struct {
	fx.In
	Runtime    *app.Runtime
	Tools      *tools.Registry
	MCP        *mcpserve.Server
	Web        *webserver.Server `optional:"true"`
	Connection *connection.Service
	Entries    *kernel.Entries
	Config     *LoadedConfig
	Log        *zap.Logger
	Token      LocalToken
}

// New builds a host. It fails if the config is invalid.
func New(opts ...Option) (*Host, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	// Check the config first: a clear error beats fx's dependency-graph
	// report of the same problem.
	if o.source != nil {
		if _, err := LoadConfig(*o.source, o.plugins...); err != nil {
			return nil, err
		}
	}
	h := &Host{}
	modules := Module
	if o.headless {
		modules = HeadlessModule
	}
	all := []fx.Option{modules, Plugins(o.plugins...), fx.Invoke(func(in hostIn) {
		h.Runtime, h.Tools, h.MCP, h.Web = in.Runtime, in.Tools, in.MCP, in.Web
		h.Connection, h.entries, h.Config, h.Log, h.token = in.Connection, in.Entries, in.Config, in.Log, in.Token
	})}
	if o.source != nil {
		all = append(all, fx.Supply(o.source))
	}
	all = append(all, o.extra...)
	h.fx = fx.New(all...)
	if err := h.fx.Err(); err != nil {
		return nil, err
	}
	return h, nil
}

// Start starts the web server and loads the config's plugins.
func (h *Host) Start(ctx context.Context) error { return h.fx.Start(ctx) }

// Stop unloads every plugin, newest first, then shuts the server down.
func (h *Host) Stop(ctx context.Context) error { return h.fx.Stop(ctx) }

// URL is the web server's base URL ("" when headless).
func (h *Host) URL() string {
	if h.Web == nil {
		return ""
	}
	return h.Web.URL()
}

// LoginLink mints a one-time link that gives a browser a session; ctx
// bounds saving it (in a shared backend).
func (h *Host) LoginLink(ctx context.Context) (string, error) {
	if h.Web == nil {
		return "", errors.New("dsh: headless host has no web server")
	}
	return h.Connection.NewLoginLink(ctx, h.Web.PublicURL()), nil
}

// Token is this process's own bearer token (for the CLI and tests).
func (h *Host) Token() string { return string(h.token) }
