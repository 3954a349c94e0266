package dsh_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh"
)

// TestHostStoreConfig: host.store's defaults, the DSN from the
// environment winning over the file, a postgres store without any DSN
// refused naming both places, and MCP's sessions following the store
// unless set.
func TestHostStoreConfig(t *testing.T) {
	load := func(yaml string) *dsh.LoadedConfig {
		t.Helper()
		c, err := dsh.LoadConfig(dsh.ConfigSource{YAML: []byte("host:\n  dataDir: " + t.TempDir() + "\n" + yaml)})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := load("")
	if c.Host.Store != (dsh.StoreConfig{Kind: "file", DSNEnv: "DSH_STORE_DSN"}) || c.Host.MCP.Stateless(c.Host.Store) {
		t.Fatalf("defaults: %+v, stateless %v", c.Host.Store, c.Host.MCP.Stateless(c.Host.Store))
	}
	if dsn, err := c.Host.Store.ResolveDSN(func(string) string { return "postgres://x" }); dsn != "" || err != nil {
		t.Fatalf("a file store has no DSN: %q %v", dsn, err)
	}

	c = load("  store: {kind: postgres, dsn: 'postgres://file/db', dsnEnv: MY_DSN}\n")
	env := map[string]string{"MY_DSN": "postgres://env/db"}
	if dsn, err := c.Host.Store.ResolveDSN(func(k string) string { return env[k] }); dsn != "postgres://env/db" || err != nil {
		t.Fatalf("the environment's DSN wins: %q %v", dsn, err)
	}
	if dsn, err := c.Host.Store.ResolveDSN(func(string) string { return "" }); dsn != "postgres://file/db" || err != nil {
		t.Fatalf("else the file's: %q %v", dsn, err)
	}
	if !c.Host.MCP.Stateless(c.Host.Store) {
		t.Fatal("a postgres store serves MCP without sessions by default (any node answers)")
	}

	c = load("  store: {kind: postgres}\n  mcp: {sessions: keep}\n")
	if _, err := c.Host.Store.ResolveDSN(func(string) string { return "" }); err == nil ||
		!strings.Contains(err.Error(), "DSH_STORE_DSN") || !strings.Contains(err.Error(), "host.store.dsn") {
		t.Fatalf("no DSN: %v", err)
	}
	if c.Host.MCP.Stateless(c.Host.Store) {
		t.Fatal("sessions: keep overrides the store's default")
	}

	if _, err := dsh.LoadConfig(dsh.ConfigSource{YAML: []byte("host:\n  dataDir: " + t.TempDir() + "\n  store: {kind: mysql}\n")}); err == nil {
		t.Fatal("kind mysql accepted")
	}
}

// TestStartUnreachableDatabase: a postgres store whose server is not
// there fails the start with one error that names the server and not
// the password, and touches nothing.
func TestStartUnreachableDatabase(t *testing.T) {
	dir := t.TempDir()
	yaml := "host:\n  listen: 127.0.0.1:0\n  dataDir: " + dir + "\n  store: {kind: postgres, dsn: 'postgres://dsh:s3cret@127.0.0.1:1/dsh?connect_timeout=2', dsnEnv: DSH_TEST_UNSET_DSN}\n"
	h, err := dsh.New(dsh.WithConfigYAML([]byte(yaml)))
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		err = h.Start(ctx)
		if err == nil {
			_ = h.Stop(context.Background())
		}
	}
	if err == nil {
		t.Fatal("started without its database")
	}
	msg := err.Error()
	if !strings.Contains(msg, "cannot be reached") || !strings.Contains(msg, "127.0.0.1:1") || strings.Contains(msg, "s3cret") {
		t.Fatalf("error %q: should say the database cannot be reached, where, and never the password", msg)
	}
}
