package dsh

import (
	"context"
	_ "embed"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/plugins/database"
	"github.com/dshgo/dsh/plugins/storage"
	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/tools/mcpserve"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// HostConfig is the `host:` section of the YAML file.
type HostConfig struct {
	// Listen is the web server's address. The default binds loopback only.
	Listen string `json:"listen"`
	// PublicURL is the URL people use to reach the host when it differs from
	// the listen address (behind a proxy). Its origin is trusted too.
	PublicURL string `json:"publicURL"`
	// DataDir holds the host's state (tokens, runtime file) and is the base
	// for plugins' relative paths. Relative to the config file.
	DataDir string `json:"dataDir"`
	// Store is where everything persisted lives: files under DataDir, or
	// a PostgreSQL database several nodes share.
	Store StoreConfig `json:"store"`
	// AllowedHosts are extra Host header values to accept.
	AllowedHosts []string `json:"allowedHosts"`
	// AllowedOrigins are origins of other pages that may call the host
	// with a bearer token (a browser-based MCP client on another port).
	// Any other Origin is refused with 403 forbidden_origin on every route,
	// public ones included, whatever the credential (and a write another
	// site's page sends without an Origin, by Sec-Fetch-Site); session
	// cookies count only from the host's own origins.
	AllowedOrigins []string `json:"allowedOrigins"`
	// Owner is the login name of the owner account the first start
	// creates ("": the OS user's name, else "owner").
	Owner string `json:"owner"`
	// TrustedProxy names a reverse proxy whose X-Forwarded-For and
	// identity header count.
	TrustedProxy TrustedProxyConfig `json:"trustedProxy"`
	// Tokens are bearer tokens (hashed) accepted besides the token file.
	Tokens []connection.TokenRecord `json:"tokens"`
	Log    LogConfig                `json:"log"`
	HTTP   HTTPConfig               `json:"http"`
	MCP    MCPConfig                `json:"mcp"`
	// Metrics is the `metrics:` section (hostmetrics.go).
	Metrics MetricsConfig `json:"metrics"`
	// Tracing is the `tracing:` section (hosttracing.go).
	Tracing TracingConfig `json:"tracing"`
}

// TrustedProxyConfig is the `trustedProxy:` section: a reverse proxy or
// load balancer whose X-Forwarded-For names the client, and which may
// have authenticated the person and say who in a header.
type TrustedProxyConfig struct {
	Addresses   []string `json:"addresses"`
	UserHeader  string   `json:"userHeader"`
	EmailHeader string   `json:"emailHeader"`
}

// LogConfig chooses the log level and format.
type LogConfig struct {
	Level  string `json:"level"`  // debug, info, warn, error
	Format string `json:"format"` // auto (console in a terminal, else JSON), console, json
}

// HTTPConfig tunes the web server.
type HTTPConfig struct {
	MaxBodyBytes    int64    `json:"maxBodyBytes"`
	DrainTimeout    Duration `json:"drainTimeout"`
	ShutdownTimeout Duration `json:"shutdownTimeout"`
}

// MCPConfig bounds what agents may hold and send over MCP. It is read at
// start.
type MCPConfig struct {
	// MaxSessions caps the Streamable HTTP sessions open at once: an
	// initialize past it is refused with 409 too_many_sessions, naming
	// this setting; no open session is closed to make room.
	MaxSessions int `json:"maxSessions"`
	// MaxSessionsPerToken caps the sessions one credential (a bearer
	// token, a browser session) holds, the same way. The default lets one
	// person run a hundred agents on one token.
	MaxSessionsPerToken int `json:"maxSessionsPerToken"`
	// SessionIdleTimeout closes a session that received no request for
	// that long.
	SessionIdleTimeout Duration `json:"sessionIdleTimeout"`
	// MaxArgumentBytes bounds one tool call's arguments on every transport
	// (stdio has no body limit of its own): a longer call is refused with
	// too_large before it is decoded.
	MaxArgumentBytes int64 `json:"maxArgumentBytes"`
	// Sessions is "keep" (Streamable HTTP sessions, with list_changed
	// notifications and resumable streams), "none" (stateless: any node
	// behind a round-robin load balancer answers any request), or "auto":
	// none with a postgres store, keep otherwise.
	Sessions string `json:"sessions"`
	// Tools, when set, are the only tools agents see and may call over
	// MCP: tool names or patterns with * and ? ("excalidraw_scene_*").
	// A smaller set costs each agent's context less. Empty offers every
	// tool the plugins register.
	Tools []string `json:"tools,omitempty"`
	// Instructions is the operator's text for the MCP initialize
	// result, before what the plugins say there (each a pointer at its
	// guide).
	Instructions string `json:"instructions,omitempty"`
}

// Stateless reports whether MCP runs without sessions under store.
func (c MCPConfig) Stateless(store StoreConfig) bool {
	switch c.Sessions {
	case "none":
		return true
	case "keep":
		return false
	}
	return store.Kind == StorePostgres
}

// Store kinds.
const (
	StoreFile     = "file"
	StorePostgres = "postgres"
)

// StoreConfig is the `store:` section.
type StoreConfig struct {
	// Kind is StoreFile (the default) or StorePostgres.
	Kind string `json:"kind"`
	// DSN is the PostgreSQL connection string; DSNEnv names the
	// environment variable that holds it instead (it wins when set), so
	// the password stays out of the file.
	DSN    string `json:"dsn"`
	DSNEnv string `json:"dsnEnv"`
}

// OpenStorage opens where the host keeps what it keeps: the data
// directory dataDir's files, or, when s is postgres, the shared database,
// connected and its schema brought up to date. It is the one place the
// choice is made: `dsh serve`, the commands that edit the state with no
// host running, and `dsh store migrate` all open their Storage here. The
// caller closes it.
func OpenStorage(ctx context.Context, dataDir string, s StoreConfig, log *zap.Logger) (*storage.Storage, error) {
	if s.Kind != StorePostgres {
		return storage.Files(dataDir), nil
	}
	dsn, err := s.ResolveDSN(os.Getenv)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	pool, err := pgdb.Open(ctx, pgdb.Options{DSN: dsn, Tracer: database.Tracer{}})
	if err != nil {
		return nil, fmt.Errorf("host.store: %w", err)
	}
	if log == nil {
		log = zap.NewNop()
	}
	return storage.Postgres(dataDir, &database.DB{Pool: pool, Where: pgdb.Where(pool), State: pgstate.New(pool, pgstate.Options{Logger: log.Named("state")})}), nil
}

// ResolveDSN is the DSN to connect with: DSNEnv's value when set, else
// DSN. A postgres store with neither is an error naming both.
func (s StoreConfig) ResolveDSN(getenv func(string) string) (string, error) {
	if s.Kind != StorePostgres {
		return "", nil
	}
	if s.DSNEnv != "" {
		if v := getenv(s.DSNEnv); v != "" {
			return v, nil
		}
	}
	if s.DSN != "" {
		return s.DSN, nil
	}
	return "", fmt.Errorf("host.store: kind is postgres but no DSN is given: set the %s environment variable or host.store.dsn", s.DSNEnv)
}

// Duration reads "5s"-style strings from the config.
type Duration time.Duration

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("duration %q: %w", b, err)
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes the duration back as a string.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// HostSchema is the JSON Schema of the host section; the loader uses it to
// fill defaults and clamp numbers.
//
//go:embed host.schema.json
var HostSchema []byte

// DefaultHostConfig is the host section of an empty file.
func DefaultHostConfig() HostConfig {
	var c HostConfig
	c.Listen = "127.0.0.1:7420"
	c.DataDir = "./data"
	c.Store = StoreConfig{Kind: StoreFile, DSNEnv: "DSH_STORE_DSN"}
	c.Log = LogConfig{Level: "info", Format: "auto"}
	c.Tracing = TracingConfig{SampleRatio: 1, ServiceName: "dsh"}
	c.HTTP = HTTPConfig{MaxBodyBytes: 8 << 20, DrainTimeout: Duration(5 * time.Second), ShutdownTimeout: Duration(10 * time.Second)}
	c.MCP = MCPConfig{
		MaxSessions: mcpserve.DefaultMaxSessions, MaxSessionsPerToken: mcpserve.DefaultMaxSessionsPerOwner,
		SessionIdleTimeout: Duration(mcpserve.DefaultSessionTimeout), MaxArgumentBytes: tools.DefaultMaxArgumentBytes,
		Sessions: "auto",
	}
	return c
}

// decodeHost turns the normalized host map into a HostConfig and makes
// DataDir absolute against the config file's folder.
func decodeHost(raw map[string]any, configPath string) (HostConfig, error) {
	c := DefaultHostConfig()
	if err := app.Config(raw).Decode(&c); err != nil {
		return c, fmt.Errorf("host config: %w", err)
	}
	if err := mcpserve.ValidToolPatterns(c.MCP.Tools); err != nil {
		return c, fmt.Errorf("host config: mcp.tools: %w", err)
	}
	if !filepath.IsAbs(c.DataDir) {
		base := "."
		if configPath != "" {
			base = filepath.Dir(configPath)
		}
		c.DataDir = filepath.Join(base, c.DataDir)
	}
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return c, fmt.Errorf("host config: dataDir: %w", err)
	}
	c.DataDir = abs
	return c, nil
}

// ensureDataDir creates the data directory, private to the user.
func ensureDataDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	return nil
}

// baseURL is where people reach the web server: the publicURL, else
// http:// and the listen address; empty when the port is chosen at start.
func baseURL(h HostConfig) string {
	if h.PublicURL != "" {
		return strings.TrimRight(h.PublicURL, "/")
	}
	host, port, err := net.SplitHostPort(h.Listen)
	if err != nil || port == "0" || port == "" {
		return ""
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
