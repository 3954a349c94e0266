// Package hostinfo is the "host" service: facts about the running host
// that plugins need, such as the data directory their relative paths
// are resolved against.
package hostinfo

import "path/filepath"

// ServiceName is the name the host provides Info under.
const ServiceName = "host"

// Info describes the running host.
type Info struct {
	// DataDir is the host's absolute data directory.
	DataDir string
	// Version is the host's version.
	Version string
	// LoginCommand is what a person runs for a new browser login link
	// ("dsh login --config /abs/dsh.yaml"); pages show it when a session
	// has ended.
	LoginCommand string
	// BaseURL is where people reach the web server (the configured
	// publicURL, else http:// and the listen address), for links the
	// host hands out; empty when the address is chosen at start (port 0).
	BaseURL string
}

// Resolve makes path absolute against the data directory (an absolute
// path is returned cleaned).
func (i Info) Resolve(path string) string {
	if filepath.IsAbs(path) || i.DataDir == "" {
		return filepath.Clean(path)
	}
	return filepath.Join(i.DataDir, path)
}
