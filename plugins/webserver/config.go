package webserver

import "time"

// Defaults: loopback only (remote access is an explicit decision), bodies big
// enough for a drawing or a small upload, and timeouts that let a plugin
// finish a normal request while not letting one hang an unload forever.
const (
	DefaultListen            = "127.0.0.1:7420"
	DefaultMaxBodyBytes      = 8 << 20
	DefaultDrainTimeout      = 5 * time.Second
	DefaultShutdownTimeout   = 10 * time.Second
	DefaultReadHeaderTimeout = 10 * time.Second
)

// Config configures the server. Zero fields take the defaults above.
type Config struct {
	// Listen is the TCP address, e.g. "127.0.0.1:7420" or "127.0.0.1:0".
	Listen string
	// MaxBodyBytes bounds request bodies; larger ones get 413 too_large.
	MaxBodyBytes int64
	// DrainTimeout bounds how long Unmount waits for in-flight requests.
	DrainTimeout time.Duration
	// ShutdownTimeout bounds graceful shutdown before connections are
	// force-closed.
	ShutdownTimeout time.Duration
	// ReadHeaderTimeout protects against slow-loris clients.
	ReadHeaderTimeout time.Duration
	// LoginCommand is what a person is told to run for a new login link
	// when their browser has no session ("dsh login --config dsh.yaml");
	// empty means DefaultLoginCommand.
	LoginCommand string
	// PublicURL is where people reach the server when it is not the
	// listen address (a balancer or proxy in front): the links it hands
	// out start with it. Empty means URL.
	PublicURL string
}

// DefaultLoginCommand prints a login link for the running host.
const DefaultLoginCommand = "dsh login"

func (c Config) withDefaults() Config {
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.DrainTimeout <= 0 {
		c.DrainTimeout = DefaultDrainTimeout
	}
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = DefaultShutdownTimeout
	}
	if c.LoginCommand == "" {
		c.LoginCommand = DefaultLoginCommand
	}
	if c.ReadHeaderTimeout <= 0 {
		c.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	return c
}
