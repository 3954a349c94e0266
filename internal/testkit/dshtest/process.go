package dshtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Build compiles cmd/dsh with the given build tags into a temporary
// directory of t and returns the binary's path.
func Build(t testing.TB, tags ...string) string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		goBin = "go"
	}
	bin := filepath.Join(t.TempDir(), "dsh")
	args := []string{"build", "-o", bin}
	if len(tags) > 0 {
		args = append(args, "-tags", strings.Join(tags, ","))
	}
	if RaceEnabled {
		args = append(args, "-race")
	}
	cmd := exec.Command(goBin, append(args, "github.com/dshgo/dsh/cmd/dsh")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Process is a running `dsh serve`.
type Process struct {
	// URL and Token come from the runtime file the process wrote.
	URL, Token string
	// Dir holds the config file (dsh.yaml); relative paths in it resolve
	// here.
	Dir string

	t      testing.TB
	cmd    *exec.Cmd
	stdout *Buffer
	stderr *Buffer
	exited chan struct{}
	err    error // cmd.Wait's result, set before exited closes
	once   sync.Once
	exit   Exit
}

// Exit is how a stopped process ended.
type Exit struct {
	// Code is the exit status (-1 if it was killed by a signal).
	Code int
	// Elapsed is the time from the stop signal to the exit.
	Elapsed time.Duration
	// Stdout and Stderr are everything the process printed.
	Stdout, Stderr string
}

// Start writes yaml to Dir/dsh.yaml and runs `bin serve --config` on it.
// The config's host.dataDir should be relative (it resolves inside Dir)
// or a directory of the test's. Start returns once the runtime file is
// there (the host is serving). A process still running when the test ends
// gets SIGKILL.
func Start(t testing.TB, bin, yaml string, env ...string) *Process {
	t.Helper()
	dir := t.TempDir()
	config := filepath.Join(dir, "dsh.yaml")
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	p := &Process{Dir: dir, t: t, stdout: &Buffer{}, stderr: &Buffer{}, exited: make(chan struct{})}
	// Not CommandContext: the test's context may end before cleanups run,
	// and the process must get the signal the test chooses, not a kill.
	p.cmd = exec.Command(bin, "serve", "--config", config)
	p.cmd.Dir = dir
	// The race runtime sleeps a second at exit by default, which would
	// read as a slow shutdown.
	p.cmd.Env = append(append(os.Environ(), "GORACE=atexit_sleep_ms=50"), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	})

	deadline := time.Now().Add(90 * time.Second)
	for {
		if info, ok := p.runtimeInfo(); ok {
			p.URL, p.Token = info.URL, info.Token
			return p
		}
		select {
		case <-p.exited:
			t.Fatalf("dsh serve exited early: %v\n%s", p.err, Tail(p.stderr.String(), 40))
		case <-time.After(25 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("dsh serve did not come up within 90s\n%s", Tail(p.stderr.String(), 40))
		}
	}
}

// runtimeInfo reads the runtime file from any data directory under Dir.
func (p *Process) runtimeInfo() (struct{ URL, Token string }, bool) {
	var info struct{ URL, Token string }
	matches, _ := filepath.Glob(filepath.Join(p.Dir, "*", "runtime.json"))
	if more, _ := filepath.Glob(filepath.Join(p.Dir, "runtime.json")); len(more) > 0 {
		matches = append(matches, more...)
	}
	for _, m := range matches {
		if b, err := os.ReadFile(m); err == nil && json.Unmarshal(b, &info) == nil && info.URL != "" {
			return info, true
		}
	}
	return info, false
}

// Stdout is what the process has printed to stdout so far.
func (p *Process) Stdout() string { return p.stdout.String() }

// Stderr is what the process has logged so far.
func (p *Process) Stderr() string { return p.stderr.String() }

// Stop sends sig and waits for the process to exit (SIGKILL after two
// minutes, reported as a test error). Later calls return the first Exit.
func (p *Process) Stop(sig os.Signal) Exit {
	p.t.Helper()
	p.once.Do(func() {
		start := time.Now()
		if err := p.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
			p.t.Errorf("signal: %v", err)
		}
		select {
		case <-p.exited:
		case <-time.After(2 * time.Minute):
			_ = p.cmd.Process.Kill()
			<-p.exited
			p.t.Errorf("dsh serve did not exit within 2 minutes of %v", sig)
		}
		p.exit = Exit{Code: exitCode(p.err), Elapsed: time.Since(start), Stdout: p.stdout.String(), Stderr: p.stderr.String()}
	})
	return p.exit
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return -1
		}
		return ee.ExitCode()
	}
	return -1
}

// Tail is the last n lines of s.
func Tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Buffer is a bytes.Buffer safe to read while another goroutine (a
// process, a command) writes it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
