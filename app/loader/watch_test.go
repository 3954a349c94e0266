package loader

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// wait is how long tests wait for something that should happen; it is
// generous because -race on a busy two-core machine is slow, and tests only
// take that long when they are about to fail anyway.
const wait = 10 * time.Second

const baseConfig = `
host:
  workers: 2
plugins:
  - id: a
    name: counter
  - id: b
    name: web
    config:
      port: 80
  - id: c
    name: counter
    config:
      maxElements: 10
`

// recorder is an Applier that hands every change set to the test and checks
// that ApplyChanges is never entered twice at once.
type recorder struct {
	calls    chan []Change
	inflight atomic.Int32
	overlap  atomic.Bool
	err      error
	block    chan struct{} // when non-nil, ApplyChanges waits on it (or ctx)
	entered  chan struct{}
}

func newRecorder() *recorder {
	return &recorder{calls: make(chan []Change, 64), entered: make(chan struct{}, 64)}
}

func (r *recorder) ApplyChanges(ctx context.Context, changes []Change) error {
	if r.inflight.Add(1) > 1 {
		r.overlap.Store(true)
	}
	defer r.inflight.Add(-1)
	r.entered <- struct{}{}
	if r.block != nil {
		select {
		case <-r.block:
		case <-ctx.Done():
			r.calls <- changes
			return ctx.Err()
		}
	}
	r.calls <- changes
	return r.err
}

type harness struct {
	t       *testing.T
	path    string
	w       *Watcher
	apply   *recorder
	reloads chan *File
	errs    chan error
	logs    *observer.ObservedLogs
}

func newHarness(t *testing.T, apply *recorder, debounce time.Duration) *harness {
	t.Helper()
	h := &harness{
		t:       t,
		path:    filepath.Join(t.TempDir(), "dsh.yaml"),
		apply:   apply,
		reloads: make(chan *File, 64),
		errs:    make(chan error, 64),
	}
	h.write(baseConfig)
	core, logs := observer.New(zap.DebugLevel)
	h.logs = logs
	log := zap.New(core)
	f, err := Load(h.path, []byte(hostSchema), testCatalog(), log)
	if err != nil {
		t.Fatal(err)
	}
	h.w, err = Watch(context.Background(), f, []byte(hostSchema), testCatalog(), apply, log, WatchOptions{
		Debounce: debounce,
		OnReload: func(f *File, _ []Change) { h.reloads <- f },
		OnError:  func(err error) { h.errs <- err },
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// close stops the watcher; deferred after goleak.VerifyNone so it runs first.
func (h *harness) close() {
	if err := h.w.Close(); err != nil {
		h.t.Errorf("Close: %v", err)
	}
}

func (h *harness) write(content string) {
	h.t.Helper()
	if err := os.WriteFile(h.path, []byte(content), 0o600); err != nil {
		h.t.Fatal(err)
	}
}

// replace saves the way most editors do: write a temp file, rename it over.
func (h *harness) replace(content string) {
	h.t.Helper()
	tmp := filepath.Join(filepath.Dir(h.path), ".dsh.yaml.tmp")
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		h.t.Fatal(err)
	}
	if err := os.Rename(tmp, h.path); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) nextApply() []Change {
	h.t.Helper()
	select {
	case c := <-h.apply.calls:
		return c
	case <-time.After(wait):
		h.t.Fatal("timed out waiting for ApplyChanges")
		return nil
	}
}

func (h *harness) nextReload() *File {
	h.t.Helper()
	select {
	case f := <-h.reloads:
		return f
	case <-time.After(wait):
		h.t.Fatal("timed out waiting for OnReload")
		return nil
	}
}

// nextError skips errors matching skip (a remove+create can briefly find
// the file missing) and returns the first other one.
func (h *harness) nextError(skip func(error) bool) error {
	h.t.Helper()
	for {
		select {
		case err := <-h.errs:
			if skip != nil && skip(err) {
				continue
			}
			return err
		case <-time.After(wait):
			h.t.Fatal("timed out waiting for OnError")
			return nil
		}
	}
}

func (h *harness) noApplyPending() {
	h.t.Helper()
	select {
	case c := <-h.apply.calls:
		h.t.Fatalf("unexpected ApplyChanges(%v)", c)
	default:
	}
}

func withPort(port string) string {
	return strings.Replace(baseConfig, "port: 80", "port: "+port, 1)
}

func onlyChange(t *testing.T, changes []Change, id string, kind ChangeKind) Change {
	t.Helper()
	if len(changes) != 1 || changes[0].ID != id || changes[0].Kind != kind {
		t.Fatalf("changes = %v, want only %s %s", changes, kind, id)
	}
	return changes[0]
}

func TestWatchEditInPlaceAppliesOnlyChangedEntries(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newHarness(t, newRecorder(), 100*time.Millisecond)
	defer h.close()
	before := h.w.Current()

	h.write(withPort("8080"))
	c := onlyChange(t, h.nextApply(), "b", Changed)
	if !c.ConfigOnly() || c.Old.Config["port"] != int64(80) || c.New.Config["port"] != int64(8080) {
		t.Fatalf("change = %+v", c)
	}
	f := h.nextReload()
	if h.w.Current() != f || f == before {
		t.Fatal("Current() is not the reloaded file")
	}
	if e, _ := f.Entry("b"); e.Config["port"] != int64(8080) {
		t.Fatalf("current b = %+v", e)
	}
}

func TestWatchSaveByRename(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newHarness(t, newRecorder(), 100*time.Millisecond)
	defer h.close()

	h.replace(baseConfig + "  - id: d\n    name: web\n    config: {port: 9090}\n")
	c := onlyChange(t, h.nextApply(), "d", Added)
	if c.New.Config["port"] != int64(9090) {
		t.Fatalf("added = %+v", c.New)
	}
	h.nextReload()

	// A second rename-save still works: the watch is on the directory, not
	// on the replaced inode.
	h.replace(baseConfig)
	onlyChange(t, h.nextApply(), "d", Removed)
}

func TestWatchRemoveAndCreate(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newHarness(t, newRecorder(), 100*time.Millisecond)
	defer h.close()

	if err := os.Remove(h.path); err != nil {
		t.Fatal(err)
	}
	h.write(strings.Replace(baseConfig, "maxElements: 10", "maxElements: 20", 1))
	c := onlyChange(t, h.nextApply(), "c", Changed)
	if c.New.Config["maxElements"] != int64(20) {
		t.Fatalf("c = %+v", c.New)
	}
}

func TestWatchDebouncesABurstIntoOneApply(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newHarness(t, newRecorder(), 300*time.Millisecond)
	defer h.close()

	for port := 1; port <= 5; port++ {
		h.write(withPort(string(rune('0' + port))))
	}
	// Had any intermediate version been applied, the first change set would
	// carry its port rather than the last one.
	c := onlyChange(t, h.nextApply(), "b", Changed)
	if c.New.Config["port"] != int64(5) {
		t.Fatalf("first apply has port %v, want the burst's last value 5", c.New.Config["port"])
	}
	h.nextReload()

	// The next apply is the next edit, proving nothing else was queued.
	h.write(withPort("6"))
	c = onlyChange(t, h.nextApply(), "b", Changed)
	if c.Old.Config["port"] != int64(5) || c.New.Config["port"] != int64(6) {
		t.Fatalf("second apply = %+v -> %+v", c.Old, c.New)
	}
}

func TestWatchIgnoresEventsThatKeepTheBytes(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newHarness(t, newRecorder(), 100*time.Millisecond)
	defer h.close()

	if err := os.Chmod(h.path, 0o644); err != nil {
		t.Fatal(err)
	}
	h.write(baseConfig) // same bytes
	h.write(withPort("81"))
	onlyChange(t, h.nextApply(), "b", Changed)
	// The first OnReload is the port edit: the chmod and the identical
	// rewrite produced no reload of their own.
	if f := h.nextReload(); f.Plugins[1].Config["port"] != int64(81) {
		t.Fatalf("reloaded %+v", f.Plugins[1])
	}
}

func TestWatchInvalidEditKeepsCurrentThenValidEditDiffsAgainstLastGood(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newHarness(t, newRecorder(), 100*time.Millisecond)
	defer h.close()
	good := h.w.Current()

	// The invalid version also changes c, which must not leak into the diff.
	bad := strings.Replace(withPort("eighty"), "maxElements: 10", "maxElements: 11", 1)
	h.write(bad)
	err := h.nextError(nil)
	var le *Error
	if !errors.As(err, &le) {
		t.Fatalf("OnError got %T %v, want *Error", err, err)
	}
	if h.w.Current() != good {
		t.Fatal("an invalid edit replaced the running config")
	}
	h.noApplyPending()

	rejected := h.logs.FilterMessage("config change rejected; keeping the running config").All()
	if len(rejected) != 1 || rejected[0].Level != zap.ErrorLevel {
		t.Fatalf("want one error log, got %v", rejected)
	}
	ctx := rejected[0].ContextMap()
	if !slices.Contains(ctx["entries"].([]any), any("b")) || !slices.Contains(ctx["pointers"].([]any), any("/plugins/1/config/port")) {
		t.Fatalf("error log fields %v do not name the entry and pointer", ctx)
	}
	if msg, _ := ctx["error"].(string); !strings.Contains(msg, `entry "b" at /plugins/1/config/port`) {
		t.Fatalf("error text %q", msg)
	}
	if n := len(h.logs.FilterLevelExact(zap.ErrorLevel).All()); n != 1 {
		t.Fatalf("got %d error logs, want 1", n)
	}

	// Fix b back to its running value and change a instead: relative to the
	// last good file only a changed.
	h.write(strings.Replace(baseConfig, "  - id: a\n    name: counter\n", "  - id: a\n    name: counter\n    disabled: true\n", 1))
	c := onlyChange(t, h.nextApply(), "a", Changed)
	if c.ConfigOnly() || !c.New.Disabled || c.Old != &good.Plugins[0] {
		t.Fatalf("change = %+v", c)
	}
	if f := h.nextReload(); h.w.Current() != f || f == good {
		t.Fatal("the valid edit was not made current")
	}
}

func TestWatchCloseCancelsApplyAndEndsGoroutines(t *testing.T) {
	defer goleak.VerifyNone(t)
	rec := newRecorder()
	rec.block = make(chan struct{}) // never released: only ctx ends it
	h := newHarness(t, rec, time.Hour)

	h.write(withPort("81"))
	done := make(chan error, 1)
	go func() { done <- h.w.Reload(context.Background()) }()
	select {
	case <-rec.entered:
	case <-time.After(wait):
		t.Fatal("reload never reached ApplyChanges")
	}
	h.close()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Reload = %v, want context.Canceled from the cancelled apply", err)
	}
	if err := h.w.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
	if err := h.w.Reload(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Reload after Close = %v", err)
	}
}

func TestWatchMissingFileIsReported(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newHarness(t, newRecorder(), 50*time.Millisecond)
	defer h.close()
	before := h.w.Current()

	if err := os.Remove(h.path); err != nil {
		t.Fatal(err)
	}
	if err := h.nextError(nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v", err)
	}
	if h.w.Current() != before {
		t.Fatal("a missing file replaced the running config")
	}
	h.noApplyPending()
}

func TestWatchPicksUpEditMadeBeforeWatch(t *testing.T) {
	defer goleak.VerifyNone(t)
	path := filepath.Join(t.TempDir(), "dsh.yaml")
	if err := os.WriteFile(path, []byte(baseConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, []byte(hostSchema), testCatalog(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(withPort("81")), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := newRecorder()
	w, err := Watch(context.Background(), f, []byte(hostSchema), testCatalog(), rec, nil, WatchOptions{Debounce: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	select {
	case changes := <-rec.calls:
		onlyChange(t, changes, "b", Changed)
	case <-time.After(wait):
		t.Fatal("the edit made between Load and Watch was never applied")
	}
}

func TestWatchFollowsASymlinkedFile(t *testing.T) {
	defer goleak.VerifyNone(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "..data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "dsh.yaml"), []byte(baseConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "dsh.yaml")
	if err := os.Symlink(filepath.Join("..data", "dsh.yaml"), link); err != nil {
		t.Fatal(err)
	}
	f, err := Load(link, []byte(hostSchema), testCatalog(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder()
	w, err := Watch(context.Background(), f, []byte(hostSchema), testCatalog(), rec, nil, WatchOptions{Debounce: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	// Swap the data directory the way a ConfigMap update does.
	next := filepath.Join(dir, "..data_next")
	if err := os.Mkdir(next, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(next, "dsh.yaml"), []byte(withPort("81")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(data); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, data); err != nil {
		t.Fatal(err)
	}
	select {
	case changes := <-rec.calls:
		onlyChange(t, changes, "b", Changed)
	case <-time.After(wait):
		t.Fatal("the symlinked file's update was never applied")
	}
}

func TestWatchRejectsBadArguments(t *testing.T) {
	defer goleak.VerifyNone(t)
	rec := newRecorder()
	if _, err := Watch(context.Background(), nil, nil, nil, rec, nil, WatchOptions{}); err == nil {
		t.Fatal("nil file accepted")
	}
	if _, err := Watch(context.Background(), &File{Path: "x.yaml"}, nil, nil, nil, nil, WatchOptions{}); err == nil {
		t.Fatal("nil applier accepted")
	}
	missing := &File{Path: filepath.Join(t.TempDir(), "no", "such", "dir", "x.yaml")}
	if _, err := Watch(context.Background(), missing, nil, nil, rec, nil, WatchOptions{}); err == nil {
		t.Fatal("unwatchable directory accepted")
	}
}

func TestWatchStopsWhenContextIsCancelled(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newHarness(t, newRecorder(), time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := Watch(ctx, h.w.Current(), []byte(hostSchema), testCatalog(), h.apply, nil, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = w.Close() }()
	go func() { defer wg.Done(); h.close() }()
	wg.Wait()
}
