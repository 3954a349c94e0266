package loader

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestWatchApplyErrorStillAdvances(t *testing.T) {
	defer goleak.VerifyNone(t)
	rec := newRecorder()
	rec.err = errors.New("plugin b failed to restart")
	h := newHarness(t, rec, time.Hour) // only forced reloads
	defer h.close()

	h.write(withPort("81"))
	err := h.w.Reload(context.Background())
	if !errors.Is(err, rec.err) {
		t.Fatalf("Reload = %v, want the applier's error", err)
	}
	onlyChange(t, h.nextApply(), "b", Changed)
	f := h.nextReload()
	if h.w.Current() != f || f.Plugins[1].Config["port"] != int64(81) {
		t.Fatal("the new file was not made current after the apply error")
	}
	if n := len(h.logs.FilterMessageSnippet("applying config changes failed").All()); n != 1 {
		t.Fatalf("got %d apply-failure logs", n)
	}
}

func TestWatchReloadForcesEvenWithSameBytes(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newHarness(t, newRecorder(), time.Hour)
	defer h.close()
	before := h.w.Current()

	if err := h.w.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	f := h.nextReload()
	if f == before || len(Effective(Diff(before, f))) != 0 {
		t.Fatal("forced reload should re-parse and find nothing to change")
	}
	h.noApplyPending()

	h.write("plugins: [{name: nosuch}]\n")
	var le *Error
	if err := h.w.Reload(context.Background()); !errors.As(err, &le) {
		t.Fatalf("Reload of an invalid file = %v", err)
	}
	if h.nextError(nil) == nil || h.w.Current() != f {
		t.Fatal("invalid forced reload changed the running file")
	}
}

func TestWatchReloadsAreSerialized(t *testing.T) {
	defer goleak.VerifyNone(t)
	rec := newRecorder()
	rec.block = make(chan struct{})
	h := newHarness(t, rec, 50*time.Millisecond)
	defer h.close()

	h.write(withPort("81"))
	first := make(chan error, 1)
	go func() { first <- h.w.Reload(context.Background()) }()
	select {
	case <-rec.entered:
	case <-time.After(wait):
		t.Fatal("first reload never reached ApplyChanges")
	}

	// While the first apply runs, another Reload cannot start: with its
	// context already cancelled it gives up without touching the Applier.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.w.Reload(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("concurrent Reload = %v, want context.Canceled", err)
	}

	// An edit meanwhile waits for its turn and is diffed against the
	// result of the first apply.
	h.write(withPort("82"))
	close(rec.block)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	onlyChange(t, h.nextApply(), "b", Changed)
	c := onlyChange(t, h.nextApply(), "b", Changed)
	if c.Old.Config["port"] != int64(81) || c.New.Config["port"] != int64(82) {
		t.Fatalf("second apply = %v -> %v", c.Old.Config, c.New.Config)
	}
	if rec.overlap.Load() {
		t.Fatal("ApplyChanges ran concurrently")
	}
}

func TestReloadHostOnlyChangeCallsNoApplier(t *testing.T) {
	defer goleak.VerifyNone(t)
	h := newHarness(t, newRecorder(), time.Hour)
	defer h.close()
	before := h.w.Current()

	h.write(strings.Replace(baseConfig, "workers: 2", "workers: 3", 1))
	if err := h.w.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	f := h.nextReload()
	if !HostChanged(before, f) || f.Host["workers"] != int64(3) {
		t.Fatalf("host = %v", f.Host)
	}
	h.noApplyPending()
}
