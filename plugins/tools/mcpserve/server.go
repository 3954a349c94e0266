package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/dshgo/dsh/plugins/tools"
)

// DefaultSessionTimeout is how long an idle Streamable HTTP session lives
// when Options.SessionTimeout is zero. Agents come and go without
// saying goodbye; without a timeout their sessions would pile up forever.
const DefaultSessionTimeout = 30 * time.Minute

// ErrClosed is returned by Server methods called after Close.
var ErrClosed = errors.New("mcpserve: MCP server closed")

// Options configures a Server.
type Options struct {
	// Name and Version identify the server in the MCP handshake; they
	// default to "dsh-tools" and "0.0.0-dev".
	Name, Version string
	// Instructions are sent to clients during initialization, before the
	// plugins' own (tools.Registry.AddInstructions).
	Instructions string
	// Tools, when not empty, are the only tools offered: names or
	// path.Match patterns ("excalidraw_scene_*"). Every other tool of the
	// registry is neither listed nor callable over MCP. A malformed
	// pattern matches nothing (ValidToolPatterns checks them first).
	Tools []string
	// Logger receives the bridge's and the SDK's diagnostics; nil is silent.
	Logger *zap.Logger
	// SessionTimeout closes HTTP sessions that received no request for
	// that long; default 30m.
	SessionTimeout time.Duration
	// MaxSessions caps the Streamable HTTP sessions open at once (stdio
	// sessions are not counted); default DefaultMaxSessions. An
	// initialize past it is refused (see HTTPHandler); no open session is
	// closed to make room.
	MaxSessions int
	// MaxSessionsPerOwner caps the HTTP sessions one owner (see
	// WithSessionOwner) holds open, the same way; default
	// DefaultMaxSessionsPerOwner.
	MaxSessionsPerOwner int
	// MaxRequestBodyBytes bounds one HTTP request body; 0 means the SDK's
	// default (4 MiB). A host sets it to its own body limit, so that
	// limit, and the tools' own argument limits behind it, decide (and
	// answer in JSON) rather than the SDK's plain-text 413.
	MaxRequestBodyBytes int64
	// Stateless serves Streamable HTTP without sessions: every POST is
	// answered on its own (the SDK's stateless mode), so any of several
	// nodes behind a round-robin load balancer can take any request of an
	// agent. Each call acts for its own request's principal; there are no
	// session caps to hold, no GET stream and so no list_changed
	// notifications (clients list the tools again when they need to).
	Stateless bool
}

// Server exposes a tools.Registry to MCP clients. It mirrors the registry
// into an *mcp.Server (tools appear and disappear as plugins load and
// unload, and the SDK tells connected clients with
// notifications/tools/list_changed) and serves it over Streamable HTTP and
// stdio. Calls are routed through Registry.Call, so validation, error
// codes and canonical results are identical on every transport.
type Server struct {
	reg      registry
	log      *zap.Logger
	server   *mcp.Server
	http     *mcp.StreamableHTTPHandler
	sessions *sessionTable // the HTTP sessions, for the caps
	// idleTimeout is Options.SessionTimeout, which a refusal at a cap
	// names.
	idleTimeout time.Duration
	stateless   bool // Options.Stateless: no sessions at all

	// base is cancelled by Close; tool calls and stdio sessions derive
	// from it so that Close is not held up by work nobody will read.
	base       context.Context
	cancelBase context.CancelFunc

	unsubscribe func()

	syncMu sync.Mutex
	synced map[string]tools.Descriptor // what the mcp.Server currently offers
	// offered is Options.Tools: the registry's tools the server offers.
	offered toolSet

	lifeMu   sync.Mutex
	closed   bool
	inflight sync.WaitGroup // HTTP requests and ServeStdio calls
	close    sync.Once
}

// registry is what the bridge uses of a *tools.Registry (tests wrap one).
type registry interface {
	List() []tools.Descriptor
	Instructions() string
	Subscribe(fn func()) (cancel func())
	Call(ctx context.Context, name string, args json.RawMessage) tools.Result
}

// New builds the bridge and immediately mirrors every tool that is
// already registered.
func New(reg *tools.Registry, opts Options) *Server {
	return newServer(reg, opts)
}

func newServer(reg registry, opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	log = log.Named("tools.mcp")
	if opts.Name == "" {
		opts.Name = "dsh-tools"
	}
	if opts.Version == "" {
		opts.Version = "0.0.0-dev"
	}
	if opts.SessionTimeout <= 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	if opts.MaxSessionsPerOwner <= 0 {
		opts.MaxSessionsPerOwner = DefaultMaxSessionsPerOwner
	}
	sdkLog := newSlogLogger(log.Named("sdk"))

	m := &Server{
		reg:       reg,
		log:       log,
		synced:    make(map[string]tools.Descriptor),
		sessions:  newSessionTable(opts.MaxSessions, opts.MaxSessionsPerOwner),
		stateless: opts.Stateless,

		idleTimeout: opts.SessionTimeout,
		offered:     toolSet(opts.Tools),
	}
	m.base, m.cancelBase = context.WithCancel(context.Background())
	m.server = mcp.NewServer(&mcp.Implementation{Name: opts.Name, Version: opts.Version}, &mcp.ServerOptions{
		Instructions: opts.Instructions,
		Logger:       sdkLog,
		// Tools come and go at runtime, so advertise the capability (with
		// list-change notifications) even while the registry is empty;
		// otherwise a client connecting early would never ask again. Setting
		// Capabilities also drops the SDK's default "logging" capability,
		// which this server does not implement.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
	})
	m.server.AddReceivingMiddleware(m.instructionsMiddleware(opts.Instructions))
	m.http = newStreamableHandler(m.server, opts.SessionTimeout, opts.MaxRequestBodyBytes, opts.Stateless, sdkLog)

	// Subscribe before the first sync so no change can slip in between.
	m.unsubscribe = reg.Subscribe(m.sync)
	m.sync()
	return m
}

// SDKServer returns the underlying SDK server, for hosts that want to add
// prompts or resources or connect other transports. Sessions connected
// through it are closed by Close like the bridge's own.
func (m *Server) SDKServer() *mcp.Server { return m.server }

// Close stops mirroring the registry, cancels in-flight tool calls,
// closes every session and waits for HTTP requests and ServeStdio calls
// to return. It is idempotent; concurrent callers all wait for the first.
func (m *Server) Close() error {
	m.close.Do(func() {
		m.lifeMu.Lock()
		m.closed = true
		m.lifeMu.Unlock()

		m.unsubscribe()
		m.cancelBase()
		m.closeSessions()
		m.inflight.Wait()
		// A request admitted before Close may have opened a session after
		// the first sweep; it has finished now, so sweep once more.
		m.closeSessions()
		m.log.Debug("MCP server closed")
	})
	return nil
}

func (m *Server) closeSessions() {
	for ss := range m.server.Sessions() {
		if err := ss.Close(); err != nil {
			m.log.Debug("closing MCP session", zap.String("session", ss.ID()), zap.Error(err))
		}
	}
}

// enter admits one HTTP request or stdio run, or reports that the server
// is closed. Every successful enter must be paired with leave.
func (m *Server) enter() bool {
	m.lifeMu.Lock()
	defer m.lifeMu.Unlock()
	if m.closed {
		return false
	}
	m.inflight.Add(1)
	return true
}

func (m *Server) leave() { m.inflight.Done() }

// withBase returns a context cancelled when either ctx or the server's
// lifetime ends.
func (m *Server) withBase(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(m.base, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}
