// Package mcpload is the concurrency workload of issue 30: a dsh binary
// started as a child process with a fresh data directory, serving MCP over
// streamable HTTP on loopback, and many agents' sessions (the official
// go-sdk client) each making a mix of tool calls at once. It measures the
// host process from /proc: CPU (user+sys) over the workload, the peak
// resident set, open file descriptors and threads, and each tool's
// latencies as the agents saw them.
//
// The workload uses only tools every dsh since commit e63b9c2 has
// (excalidraw_scene_list, _read, _create, _apply and dsh_status) and starts
// the binary as `dsh serve --config FILE`, so the same client runs against
// binaries built from old revisions.
package mcpload

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// Host is a dsh binary running `serve` as a child process.
type Host struct {
	URL   string // http://127.0.0.1:PORT
	Token string // the host's own token, from its runtime file
	PID   int
	cmd   *exec.Cmd
}

// StartHost runs bin serve with a config of its own in dir (a fresh data
// directory under it, a port the kernel picks, the status and excalidraw
// plugins) and returns once the host says where it serves.
func StartHost(bin, dir string) (*Host, error) {
	config := filepath.Join(dir, "config.yaml")
	// Session caps above the workload's (revisions between e63b9c2 and
	// the 256 per token of today closed the idlest session past 32); a
	// revision without the setting ignores it with a warning.
	yaml := "host:\n  listen: 127.0.0.1:0\n  dataDir: ./data\n  log: {level: warn, format: json}\n" +
		"  mcp: {maxSessions: 2048, maxSessionsPerToken: 2048}\n" +
		"plugins:\n  - {id: status, name: status}\n  - {id: excalidraw, name: excalidraw}\n"
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve", "--config", config)
	cmd.Dir = dir
	logFile, err := os.Create(filepath.Join(dir, "host.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd.Stderr = logFile
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	h := &Host{PID: cmd.Process.Pid, cmd: cmd}
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "dsh is serving at "); ok {
			h.URL = strings.TrimSpace(u)
			break
		}
	}
	if h.URL == "" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("%s never said where it serves (see %s)", bin, logFile.Name())
	}
	go func() { _, _ = bufio.NewReader(out).WriteTo(discard{}) }() // the rest of its stdout
	var rt struct {
		Token string `json:"token"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "data", "runtime.json"))
	if err == nil {
		err = json.Unmarshal(b, &rt)
	}
	if err != nil || rt.Token == "" {
		h.Stop()
		return nil, fmt.Errorf("runtime file: %v", err)
	}
	h.Token = rt.Token
	return h, nil
}

// discard swallows the host's stdout after its first lines.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Stop interrupts the host and waits for it to exit (killing it after 30s).
func (h *Host) Stop() {
	_ = h.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = h.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = h.cmd.Process.Kill()
		<-done
	}
}

// Proc is what /proc says of a process at one moment.
type Proc struct {
	CPU     time.Duration // user+sys since it started
	RSSKB   int64         // resident set now (VmRSS)
	HWMKB   int64         // peak resident set since it started (VmHWM)
	Threads int
	FDs     int
}

// ReadProc reads /proc/pid/{stat,status,fd}.
func ReadProc(pid int) (Proc, error) {
	var p Proc
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return p, err
	}
	// Fields after the command's closing parenthesis start at field 3
	// (state); utime and stime are fields 14 and 15, in USER_HZ (100/s).
	i := strings.LastIndexByte(string(stat), ')')
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 13 {
		return p, fmt.Errorf("short /proc/%d/stat", pid)
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	p.CPU = time.Duration(ut+st) * 10 * time.Millisecond
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return p, err
	}
	for line := range strings.Lines(string(status)) {
		k, v, _ := strings.Cut(line, ":")
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			p.RSSKB = n
		case "VmHWM":
			p.HWMKB = n
		case "Threads":
			p.Threads = int(n)
		}
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return p, err
	}
	p.FDs = len(fds)
	return p, nil
}

// Options shape the workload.
type Options struct {
	Sessions int // agents at once (100)
	Calls    int // tool calls per session, its scene's create included (100)
}

// Report is one run of the workload against one host.
type Report struct {
	CPU        time.Duration // the host's user+sys over the workload
	Wall       time.Duration
	RSSPeakMB  float64 // the host's VmHWM after the workload
	FDsPeak    int     // most open descriptors seen (sampled every 20 ms)
	FDsAfter   int     // open descriptors once every session closed
	Threads    int     // most threads seen
	Calls      int
	Conflicts  int                        // shared-board applies refused as stale
	Latency    map[string][]time.Duration // per tool, sorted
	Idle, Busy Proc                       // the host before and after
}

// P returns the q quantile (0..1) of tool's latencies.
func (r *Report) P(tool string, q float64) time.Duration {
	l := r.Latency[tool]
	if len(l) == 0 {
		return 0
	}
	return l[min(len(l)-1, int(q*float64(len(l))))]
}

// Tools is the mix's tool names, as Report.Latency keys them.
var Tools = []string{"list", "read", "apply", "status", "create"}

// Run makes the workload against h: a shared board with one element per
// session, then opts.Sessions sessions at once, each creating its own
// scene and making opts.Calls-1 more calls in a fixed mix (per ten: list
// ×2, read ×4 (own full and summary, the shared one full and summary),
// apply ×3 (two on its own scene, one moving its element on the shared
// board, whose stale refusals count as calls) and dsh_status), then
// closing. CPU, descriptors and memory are the host's over that span.
func Run(ctx context.Context, h *Host, opts Options) (*Report, error) {
	if opts.Sessions <= 0 {
		opts.Sessions = 100
	}
	if opts.Calls <= 1 {
		opts.Calls = 100
	}
	setup, err := Connect(ctx, h.URL, h.Token, "mcpload-setup")
	if err != nil {
		return nil, err
	}
	shared := make([]any, opts.Sessions)
	for i := range shared {
		shared[i] = rect(fmt.Sprintf("sh%d", i), i)
	}
	res, err := call(ctx, setup, "excalidraw_scene_create", map[string]any{"name": "shared", "elements": shared})
	setup.Close()
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, fmt.Errorf("create shared: %s", text(res))
	}

	idle, err := ReadProc(h.PID)
	if err != nil {
		return nil, err
	}
	rep := &Report{Latency: map[string][]time.Duration{}, Idle: idle}
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			if p, err := ReadProc(h.PID); err == nil {
				rep.FDsPeak = max(rep.FDsPeak, p.FDs)
				rep.Threads = max(rep.Threads, p.Threads)
			}
			select {
			case <-stopSampling:
				return
			case <-t.C:
			}
		}
	}()

	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	start := time.Now()
	for i := range opts.Sessions {
		wg.Go(func() {
			lat, conflicts, err := agent(ctx, h, i, opts.Calls)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("session %d: %w", i, err))
			}
			rep.Conflicts += conflicts
			for k, v := range lat {
				rep.Latency[k] = append(rep.Latency[k], v...)
				rep.Calls += len(v)
			}
		})
	}
	wg.Wait()
	rep.Wall = time.Since(start)
	close(stopSampling)
	<-sampled
	busy, err := ReadProc(h.PID)
	if err != nil {
		return nil, err
	}
	rep.Busy = busy
	rep.CPU = busy.CPU - idle.CPU
	rep.RSSPeakMB = float64(busy.HWMKB) / 1024
	rep.FDsAfter = busy.FDs
	for _, l := range rep.Latency {
		slices.Sort(l)
	}
	return rep, errors.Join(errs...)
}

// agent is one session's life: connect, create its scene, the mix, close.
func agent(ctx context.Context, h *Host, i, calls int) (map[string][]time.Duration, int, error) {
	sess, err := Connect(ctx, h.URL, h.Token, fmt.Sprintf("mcpload-%d", i))
	if err != nil {
		return nil, 0, err
	}
	defer sess.Close()
	lat := map[string][]time.Duration{}
	conflicts := 0
	timed := func(key, tool string, args map[string]any) (*mcp.CallToolResult, error) {
		t := time.Now()
		res, err := call(ctx, sess, tool, args)
		lat[key] = append(lat[key], time.Since(t))
		return res, err
	}
	own := fmt.Sprintf("w%d", i)
	elements := make([]any, 20)
	for j := range elements {
		elements[j] = rect(fmt.Sprintf("e%d", j), j)
	}
	res, err := timed("create", "excalidraw_scene_create", map[string]any{"name": own, "elements": elements})
	if err != nil {
		return nil, 0, err
	}
	ownRev, _ := revision(res)
	if res.IsError || ownRev == 0 {
		return nil, 0, fmt.Errorf("create %s: %s", own, text(res))
	}
	var sharedRev int64 = 1
	move := func(name, id string, rev int64, k int) map[string]any {
		return map[string]any{"name": name, "expected_revision": rev, "operations": []any{
			map[string]any{"op": "update", "id": id, "patch": map[string]any{"x": float64(k), "y": float64(i)}},
		}}
	}
	for k := 1; k < calls; k++ {
		var res *mcp.CallToolResult
		var err error
		switch k % 10 {
		case 0, 5:
			res, err = timed("list", "excalidraw_scene_list", map[string]any{})
		case 1:
			res, err = timed("read", "excalidraw_scene_read", map[string]any{"name": own})
		case 8:
			res, err = timed("read", "excalidraw_scene_read", map[string]any{"name": own, "include": "summary"})
		case 3:
			res, err = timed("read", "excalidraw_scene_read", map[string]any{"name": "shared", "include": "summary"})
		case 9:
			res, err = timed("read", "excalidraw_scene_read", map[string]any{"name": "shared"})
		case 6:
			res, err = timed("status", "dsh_status", map[string]any{})
		case 2, 7:
			res, err = timed("apply", "excalidraw_scene_apply", move(own, fmt.Sprintf("e%d", k%20), ownRev, k))
			if err == nil {
				rev, stale := revision(res)
				if res.IsError && !stale {
					return nil, 0, fmt.Errorf("apply %s: %s", own, text(res))
				}
				ownRev = rev
			}
		case 4:
			res, err = timed("apply", "excalidraw_scene_apply", move("shared", fmt.Sprintf("sh%d", i), sharedRev, k))
			if err == nil {
				rev, stale := revision(res)
				if res.IsError && !stale {
					return nil, 0, fmt.Errorf("apply shared: %s", text(res))
				}
				if stale {
					conflicts++
				}
				sharedRev = rev
			}
		}
		if err != nil {
			return nil, 0, err
		}
		if res.IsError && k%10 != 2 && k%10 != 7 && k%10 != 4 {
			return nil, 0, fmt.Errorf("call %d: %s", k, text(res))
		}
	}
	return lat, conflicts, nil
}

// Connect opens an MCP session on url's /mcp with token, on a transport of
// its own (as a separate agent process has).
func Connect(ctx context.Context, url, token, name string) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil)
	tr := &http.Transport{MaxIdleConnsPerHost: 4}
	return c.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   url + "/mcp",
		HTTPClient: &http.Client{Transport: dshtest.Bearer{Token: token, Base: tr}},
	}, nil)
}

func call(ctx context.Context, s *mcp.ClientSession, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	return res, nil
}

// rect is a small rectangle element, the i-th of a row.
func rect(id string, i int) map[string]any {
	return map[string]any{"type": "rectangle", "id": id, "x": (i % 10) * 120, "y": (i / 10) * 100, "width": 100, "height": 60}
}

// text is a result's first text content.
func text(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// revision is the scene's revision a write's result says: its own
// ("revision") or, refused as stale, the current one ("currentRevision"
// anywhere in the error), with stale true then.
func revision(res *mcp.CallToolResult) (rev int64, stale bool) {
	var v any
	if json.Unmarshal([]byte(text(res)), &v) != nil {
		return 0, false
	}
	if !res.IsError {
		if m, ok := v.(map[string]any); ok {
			if r, ok := m["revision"].(float64); ok {
				return int64(r), false
			}
		}
		return 0, false
	}
	if r, ok := find(v, "currentRevision"); ok && strings.Contains(text(res), "revision_conflict") {
		return int64(r), true
	}
	return 0, false
}

// find is the first number under key anywhere in v.
func find(v any, key string) (float64, bool) {
	switch v := v.(type) {
	case map[string]any:
		if r, ok := v[key].(float64); ok {
			return r, true
		}
		for _, w := range v {
			if r, ok := find(w, key); ok {
				return r, true
			}
		}
	case []any:
		for _, w := range v {
			if r, ok := find(w, key); ok {
				return r, true
			}
		}
	}
	return 0, false
}
