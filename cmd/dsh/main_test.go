package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(pgtestM{m}) }

// run executes one dsh command line in-process.
func run(t *testing.T, ctx context.Context, args ...string) (string, error) {
	t.Helper()
	var out dshtest.Buffer
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(io.Discard)
	err := root.ExecuteContext(ctx)
	return out.String(), err
}

func writeConfig(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "dsh.yaml")
	cfg := "host:\n  listen: 127.0.0.1:0\n  dataDir: ./state\n  log: {level: error, format: json}\nplugins:\n  - {id: status, name: status}\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestServeAndPluginsCommands(t *testing.T) {
	cfg := writeConfig(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out dshtest.Buffer
	done := make(chan error, 1)
	go func() {
		root := newRoot()
		root.SetArgs([]string{"serve", "--config", cfg})
		root.SetOut(&out)
		done <- root.ExecuteContext(ctx)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "login") {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %q", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "/login?token=") || !strings.Contains(out.String(), "/mcp") {
		t.Fatalf("serve output lacks the login link or MCP endpoint:\n%s", out.String())
	}

	ls, err := run(t, context.Background(), "plugins", "ls", "--config", cfg)
	if err != nil || !strings.Contains(ls, "status") || !strings.Contains(ls, "active") {
		t.Fatalf("plugins ls: %v\n%s", err, ls)
	}
	for _, action := range []string{"unload", "load", "reload"} {
		got, err := run(t, context.Background(), "plugins", action, "status", "--config", cfg)
		if err != nil {
			t.Fatalf("plugins %s: %v", action, err)
		}
		want := map[string]string{"unload": "status: unloaded", "load": "status: active", "reload": "status: active"}[action]
		if strings.TrimSpace(got) != want {
			t.Fatalf("plugins %s printed %q, want %q", action, got, want)
		}
	}
	if _, err := run(t, context.Background(), "plugins", "load", "nope", "--config", cfg); err == nil || !strings.Contains(err.Error(), "unknown_entry") {
		t.Fatalf("unknown entry: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(cfg), "state", "runtime.json")); !os.IsNotExist(err) {
		t.Fatal("runtime file left behind after stop")
	}
	if _, err := run(t, context.Background(), "plugins", "ls", "--config", cfg); err == nil {
		t.Fatal("plugins ls with no running host must fail")
	}
}

func TestTokenCommands(t *testing.T) {
	cfg := writeConfig(t)
	plain, err := run(t, context.Background(), "token", "create", "agent", "--config", cfg)
	plain = strings.TrimSpace(plain)
	if err != nil || !strings.HasPrefix(plain, "dsh_") {
		t.Fatalf("token create: %v %q", err, plain)
	}
	ls, err := run(t, context.Background(), "token", "ls", "--config", cfg)
	if err != nil || !strings.Contains(ls, "agent") || strings.Contains(ls, plain) {
		t.Fatalf("token ls: %v\n%s", err, ls)
	}
	raw, _ := os.ReadFile(filepath.Join(filepath.Dir(cfg), "state", "tokens.json"))
	if bytes.Contains(raw, []byte(plain)) {
		t.Fatal("token stored in plain text")
	}
	if _, err := run(t, context.Background(), "token", "revoke", "agent", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, context.Background(), "token", "revoke", "agent", "--config", cfg); err == nil {
		t.Fatal("revoking twice must fail")
	}
}

func TestVersion(t *testing.T) {
	out, err := run(t, context.Background(), "version")
	if err != nil || !strings.HasPrefix(out, "dsh ") {
		t.Fatalf("%v %q", err, out)
	}
}

// TestMCPStdio drives `dsh mcp` with the SDK client over pipes, as a
// desktop agent would.
func TestMCPStdio(t *testing.T) {
	cfg := writeConfig(t)
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		root := newRoot()
		root.SetArgs([]string{"mcp", "--config", cfg})
		root.SetIn(serverIn)
		root.SetOut(serverOut)
		root.SetErr(io.Discard)
		err := root.ExecuteContext(context.Background())
		serverOut.Close()
		done <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "desktop", Version: "1"}, nil)
	sess, err := c.Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "dsh_status"})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(text, `"ok":true`) || !strings.Contains(text, `"name":"status"`) {
		t.Fatalf("dsh_status over stdio: %s", text)
	}
	// Over stdio there is no HTTP request to name a call, yet a refusal
	// names the call it answered (details.request_id), a new id each call,
	// as the access line and journal entries do.
	ids := map[string]bool{}
	for range 2 {
		res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "dsh_status", Arguments: map[string]any{"nope": 1}})
		if err != nil || !res.IsError {
			t.Fatalf("dsh_status with an argument it does not take: %v %+v", err, res)
		}
		var refusal struct {
			Error struct {
				Details struct {
					RequestID string `json:"request_id"`
				} `json:"details"`
			} `json:"error"`
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if err := json.Unmarshal([]byte(text), &refusal); err != nil || refusal.Error.Details.RequestID == "" {
			t.Fatalf("a refusal over stdio names no request: %s (%v)", text, err)
		}
		ids[refusal.Error.Details.RequestID] = true
	}
	if len(ids) != 2 {
		t.Fatalf("two calls over stdio share a request id: %v", ids)
	}
	sess.Close()
	clientOut.Close()
	if err := <-done; err != nil {
		t.Fatalf("dsh mcp: %v", err)
	}

}

// TestVersionPrintsToStdout: `dsh version` is read by scripts, from stdout.
func TestVersionPrintsToStdout(t *testing.T) {
	out, err := run(t, context.Background(), "version")
	if err != nil || out != "dsh dev\n" {
		t.Fatalf("dsh version printed %q to stdout (%v)", out, err)
	}
}
