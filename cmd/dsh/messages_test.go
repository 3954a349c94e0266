package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// runBoth executes one dsh command line in-process as main does
// (cli.Execute: the error printed on stderr) and returns its stdout, its
// stderr and its exit code.
func runBoth(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut dshtest.Buffer
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errOut)
	code = cli.Execute(context.Background(), root)
	return out.String(), errOut.String(), code
}

// Run from a folder with no --config while a host runs with a config
// elsewhere, a command that needs the host says which data directory it
// looked in and to pass the host's --config (or --url and --token). Before,
// it said only that no host runs and to start one.
func TestNoHostSaysWhereItLookedAndSuggestsConfig(t *testing.T) {
	cfg := writeConfig(t)
	serve(t, cfg)
	elsewhere := t.TempDir()
	t.Chdir(elsewhere)
	t.Setenv("DSH_URL", "")
	t.Setenv("DSH_TOKEN", "")

	_, err := run(t, context.Background(), "plugins", "ls")
	wantDir := filepath.Join(elsewhere, "data")
	if err == nil || !strings.Contains(err.Error(), wantDir) || !strings.Contains(err.Error(), "no --config was given") ||
		!strings.Contains(err.Error(), "--config <file>") || !strings.Contains(err.Error(), "DSH_URL") {
		t.Fatalf("plugins ls without --config: %v\nwant the data directory %s and a --config suggestion", err, wantDir)
	}
	// Another config: its data directory is named, and the file.
	other := writeConfig(t)
	_, err = run(t, context.Background(), "login", "--config", other)
	if err == nil || !strings.Contains(err.Error(), dataDirOf(other)) || !strings.Contains(err.Error(), "host.dataDir of "+other) ||
		!strings.Contains(err.Error(), "another config file") {
		t.Fatalf("login with another config: %v", err)
	}
	// The host's own config still finds it.
	if out, err := run(t, context.Background(), "plugins", "ls", "--config", cfg); err != nil || !strings.Contains(out, "status") {
		t.Fatalf("plugins ls with the host's config: %v\n%s", err, out)
	}

	// A runtime file left by a host that died: nothing answers at its URL.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + l.Addr().String()
	l.Close()
	if _, err := cli.WriteRuntimeFile(dataDirOf(other), cli.RuntimeInfo{URL: gone, Token: "dsh_x", PID: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err = run(t, context.Background(), "plugins", "ls", "--config", other); err == nil ||
		!strings.Contains(err.Error(), "no host answers at "+gone) || !strings.Contains(err.Error(), "start it again with `dsh serve`") {
		t.Fatalf("plugins ls with a stale runtime file: %v", err)
	}
}

// token ls, user ls and sessions ls on a data directory without their
// file print the empty table and, on stderr, that the directory has no
// such file (naming it) and how to point at the right one; a file that is
// there and empty is a real empty list and says nothing.
func TestListingsSayTheDataDirectoryHasNoFile(t *testing.T) {
	cfg := writeConfig(t)
	state := dataDirOf(cfg)
	for _, list := range [][]string{{"token", "ls"}, {"user", "ls"}, {"sessions", "ls"}} {
		out, errOut, code := runBoth(t, append(list, "--config", cfg)...)
		if code != 0 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "ID") {
			t.Fatalf("%v: exit %d, stdout %q (want the header only)", list, code, out)
		}
		if !strings.Contains(errOut, state) || !strings.Contains(errOut, "does not exist") || !strings.Contains(errOut, "--config <file>") {
			t.Fatalf("%v: stderr %q, want the data directory %s, that it does not exist, and --config", list, errOut, state)
		}
	}

	// The directory exists, the file does not: named.
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, errOut, _ := runBoth(t, "token", "ls", "--config", cfg); !strings.Contains(errOut, "has no token file yet (tokens.json)") {
		t.Fatalf("token ls: stderr %q", errOut)
	}

	// A token made and revoked leaves an existing, empty token file.
	if _, err := run(t, context.Background(), "token", "create", "gone", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, context.Background(), "token", "revoke", "gone", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runBoth(t, "token", "ls", "--config", cfg); code != 0 || errOut != "" || strings.Contains(out, "gone") {
		t.Fatalf("token ls of an empty token file: exit %d, stdout %q, stderr %q (want no note)", code, out, errOut)
	}
	// A person added: the accounts file is there.
	if _, err := run(t, context.Background(), "user", "add", "bob", "--url", "http://127.0.0.1:7420", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runBoth(t, "user", "ls", "--config", cfg); code != 0 || errOut != "" || !strings.Contains(out, "bob") {
		t.Fatalf("user ls: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// dsh board … and a connect token on a host where the excalidraw plugin is
// not loaded say so and how to load it, where they said "not_found: no
// route for this path"; loaded again, the same command works. A host whose
// config has no entry for the plugin is told how to add one.
func TestBoardCommandsSayThePluginIsNotLoaded(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: status, name: status}\n  - {id: drawings, name: excalidraw}\n")
	serve(t, cfg)
	if _, err := run(t, context.Background(), "plugins", "unload", "drawings", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	load := "load it with: dsh plugins load drawings --config " + cfg
	for _, args := range [][]string{
		{"board", "create", "plan"},
		{"board", "share", "plan", "bob"},
		{"board", "members", "plan"},
		{"board", "room", "plan"},
		{"token", "create", "agent", "--board", "plan"},
	} {
		_, err := run(t, context.Background(), append(args, "--config", cfg)...)
		if err == nil || !strings.Contains(err.Error(), "the excalidraw plugin is not loaded") || !strings.Contains(err.Error(), "drawings is unloaded") ||
			!strings.Contains(err.Error(), load) || strings.Contains(err.Error(), "no route") || strings.Contains(err.Error(), "dsh board create") {
			t.Fatalf("%v: %v\nwant that the plugin is not loaded and %q", args, err, load)
		}
	}
	if out, err := run(t, context.Background(), "plugins", "load", "drawings", "--config", cfg); err != nil || strings.TrimSpace(out) != "drawings: active" {
		t.Fatalf("plugins load: %v %q", err, out)
	}
	if out, err := run(t, context.Background(), "board", "create", "plan", "--config", cfg); err != nil || !strings.Contains(out, "created board plan") {
		t.Fatalf("board create once loaded: %v %q", err, out)
	}
	// Loaded, a missing board is the plugin's own not_found.
	if _, err := run(t, context.Background(), "board", "members", "nope", "--config", cfg); err == nil || !strings.HasPrefix(err.Error(), "not_found: ") {
		t.Fatalf("members of a missing board: %v", err)
	}

	bare := writeConfig(t)
	serve(t, bare)
	if _, err := run(t, context.Background(), "board", "create", "plan", "--config", bare); err == nil ||
		!strings.Contains(err.Error(), "no entry for it") || !strings.Contains(err.Error(), "- {name: excalidraw}") {
		t.Fatalf("board create on a host without the plugin: %v", err)
	}
}

// A PostgreSQL store that cannot be reached fails dsh serve (and a command
// that opens the store) with one line naming the server, the cause and
// the setting to check; the framework's report of the failure is not
// printed (it was two JSON log lines and a dependency-graph error). With
// --verbose the whole error follows, and the log has the framework's report.
func TestUnreachableDatabaseIsOneLine(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	dir := t.TempDir()
	cfg := filepath.Join(dir, "dsh.yaml")
	yaml := fmt.Sprintf("host:\n  listen: 127.0.0.1:0\n  dataDir: ./state\n  log: {level: info, format: json}\n"+
		"  store: {kind: postgres, dsn: \"postgres://dsh:s3cret@%s/dsh\"}\nplugins:\n  - {id: status, name: status}\n", addr)
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DSH_STORE_DSN", "")
	want := "dsh: cannot reach the database at " + addr + " (connection refused): check host.store.dsn in " + cfg + "\n"

	for _, args := range [][]string{{"serve"}, {"mcp"}, {"token", "ls"}} {
		var errOut string
		var code int
		logged := stderrOf(t, func() { _, errOut, code = runBoth(t, append(args, "--config", cfg)...) })
		if code != 1 || errOut != want {
			t.Fatalf("%v: exit %d, stderr\n%q\nwant\n%q", args, code, errOut, want)
		}
		if strings.Contains(logged, `"level":"error"`) || strings.Contains(logged, "could not build") || strings.Contains(logged, "s3cret") {
			t.Fatalf("%v logged the framework's report:\n%s", args, logged)
		}
	}

	var errOut string
	logged := stderrOf(t, func() { _, errOut, _ = runBoth(t, "serve", "--verbose", "--config", cfg) })
	if !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, "\ndetails: ") || !strings.Contains(errOut, "*storage.Storage") {
		t.Fatalf("serve --verbose: stderr %q, want the line and then the details", errOut)
	}
	if !strings.Contains(logged, `"logger":"fx"`) || !strings.Contains(logged, `"level":"error"`) {
		t.Fatalf("serve --verbose: the log lacks the framework's report:\n%s", logged)
	}

	// The DSN from the environment: the message names the variable.
	t.Setenv("DSH_STORE_DSN", "postgres://dsh@"+addr+"/dsh")
	if _, errOut, _ := runBoth(t, "user", "ls", "--config", cfg); !strings.Contains(errOut, "check the DSH_STORE_DSN environment variable") {
		t.Fatalf("user ls with DSH_STORE_DSN: %q", errOut)
	}
	t.Setenv("DSH_STORE_DSN", "")
	// store migrate's --dsn.
	if _, errOut, _ := runBoth(t, "store", "migrate", "--from", "fs", "--to", "postgres", "--dsn", "postgres://dsh@"+addr+"/dsh", "--config", cfg); errOut != "dsh: cannot reach the database at "+addr+" (connection refused): check --dsn\n" {
		t.Fatalf("store migrate --dsn: %q", errOut)
	}
}

// stderrOf runs f with the process's stderr going to a pipe (the host's
// log writes there) and returns what was written.
func stderrOf(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	defer func() { os.Stderr = saved }()
	f()
	os.Stderr = saved
	w.Close()
	return <-done
}

// Every command's help follows one style: a one-line Short, capitalised,
// without a final period, short enough for an 80-column listing; a Long,
// when there is one, in sentences. Every example line parses: the command
// exists, its flags and arguments are accepted, and the config file it
// names is the repository's.
func TestHelpTextsAreConsistentAndExamplesParse(t *testing.T) {
	root := newRoot()
	var walk func(*cobra.Command)
	examples := 0
	walk = func(c *cobra.Command) {
		if c.Name() == "completion" || c.Name() == "help" {
			return
		}
		s := c.Short
		if s == "" || strings.ContainsAny(s, "\n") || strings.HasSuffix(s, ".") || len(s) > 76 || strings.ToUpper(s[:1]) != s[:1] {
			t.Errorf("%q: Short %q: want one capitalised line of at most 76 characters, no final period", c.CommandPath(), s)
		}
		if l := strings.TrimSpace(c.Long); l != "" && !strings.HasSuffix(l, ".") && !strings.HasSuffix(l, ")") {
			t.Errorf("%q: Long does not end a sentence: %q", c.CommandPath(), l[max(0, len(l)-40):])
		}
		for _, line := range strings.Split(c.Example, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "dsh ") {
				continue
			}
			examples++
			checkExample(t, c.CommandPath(), line)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if examples < 15 {
		t.Fatalf("only %d example lines", examples)
	}

	var out dshtest.Buffer
	root = newRoot()
	root.SetArgs([]string{"serve", "--help"})
	root.SetOut(&out)
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"login", "the data directory", "host.dataDir", "./data", "drawingsDir", "excalidraw/drawings", "--config"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("dsh serve --help does not mention %q:\n%s", want, out.String())
		}
	}
}

// checkExample parses one example line as the shell and then dsh would.
func checkExample(t *testing.T, where, line string) {
	t.Helper()
	args := shellWords(line)[1:]
	root := newRoot()
	cmd, rest, err := root.Find(args)
	if err != nil {
		t.Errorf("%s example %q: %v", where, line, err)
		return
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s example %q: %v", where, line, err)
		return
	}
	if err := cmd.ValidateArgs(cmd.Flags().Args()); err != nil {
		t.Errorf("%s example %q: %v", where, line, err)
	}
	if c, _ := cmd.Flags().GetString("config"); c != "" {
		if _, err := os.Stat(filepath.Join("..", "..", c)); err != nil {
			t.Errorf("%s example %q: the repository has no %s", where, line, c)
		}
	}
}

// shellWords splits line as a POSIX shell does for the examples' simple
// forms: words, double-quoted words, and a # comment at the end.
func shellWords(line string) []string {
	var words []string
	sc := bufio.NewScanner(strings.NewReader(line))
	sc.Split(bufio.ScanRunes)
	var cur strings.Builder
	inWord, quoted := false, false
	for sc.Scan() {
		r := sc.Text()
		switch {
		case r == `"`:
			quoted, inWord = !quoted, true
		case !quoted && (r == " " || r == "\t"):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case !quoted && r == "#" && !inWord:
			return words
		default:
			cur.WriteString(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
