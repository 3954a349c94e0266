package dsh_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/dshgo/dsh"
)

// TestHostMCPConfig: the host.mcp section's defaults, and values as
// written.
func TestHostMCPConfig(t *testing.T) {
	c, err := dsh.LoadConfig(dsh.ConfigSource{YAML: []byte("host:\n  dataDir: " + t.TempDir() + "\n")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Host.MCP, (dsh.MCPConfig{MaxSessions: 1024, MaxSessionsPerToken: 256, SessionIdleTimeout: dsh.Duration(30 * time.Minute), MaxArgumentBytes: 64 << 20, Sessions: "auto"}); !reflect.DeepEqual(got, want) {
		t.Fatalf("defaults: %+v, want %+v", got, want)
	}
	c, err = dsh.LoadConfig(dsh.ConfigSource{YAML: []byte("host:\n  dataDir: " + t.TempDir() +
		"\n  allowedOrigins: [\"http://localhost:6274\"]\n  mcp: {maxSessions: 5, maxSessionsPerToken: 2, sessionIdleTimeout: 90s, maxArgumentBytes: 2048}\n")})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Host.MCP, (dsh.MCPConfig{MaxSessions: 5, MaxSessionsPerToken: 2, SessionIdleTimeout: dsh.Duration(90 * time.Second), MaxArgumentBytes: 2048, Sessions: "auto"}); !reflect.DeepEqual(got, want) {
		t.Fatalf("values: %+v, want %+v", got, want)
	}
	if len(c.Host.AllowedOrigins) != 1 || c.Host.AllowedOrigins[0] != "http://localhost:6274" {
		t.Fatalf("allowedOrigins: %v", c.Host.AllowedOrigins)
	}
	if _, err := dsh.LoadConfig(dsh.ConfigSource{YAML: []byte("host:\n  dataDir: " + t.TempDir() + "\n  mcp: {sessionIdleTimeout: 0s}\n")}); err == nil {
		t.Fatal("sessionIdleTimeout 0s accepted")
	}
	c, err = dsh.LoadConfig(dsh.ConfigSource{YAML: []byte("host:\n  dataDir: " + t.TempDir() + "\n  mcp: {tools: [\"excalidraw_scene_*\", read_me], instructions: Be brief.}\n")})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Host.MCP; !reflect.DeepEqual(got.Tools, []string{"excalidraw_scene_*", "read_me"}) || got.Instructions != "Be brief." {
		t.Fatalf("tools and instructions: %+v", got)
	}
	for _, bad := range []string{"{tools: [\"a b\"]}", "{tools: [\"\"]}", "{tools: [a, a]}", "{tools: \"a\"}"} {
		if _, err := dsh.LoadConfig(dsh.ConfigSource{YAML: []byte("host:\n  dataDir: " + t.TempDir() + "\n  mcp: " + bad + "\n")}); err == nil {
			t.Errorf("mcp: %s accepted", bad)
		}
	}
}
