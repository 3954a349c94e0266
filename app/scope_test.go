package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newRT(t *testing.T) *Runtime {
	t.Helper()
	rt := New(Options{DisposeTimeout: 5 * time.Second})
	t.Cleanup(func() { _ = rt.Dispose(context.Background()) })
	return rt
}

// recorder collects events in order, safely from many goroutines.
type recorder struct {
	mu  sync.Mutex
	got []string
}

func (r *recorder) add(s string) { r.mu.Lock(); r.got = append(r.got, s); r.mu.Unlock() }
func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.got, ",")
}

func mustState(t *testing.T, s *Scope, want State) {
	t.Helper()
	if got := s.State(); got != want {
		t.Fatalf("%s state = %s, want %s (err %v)", s, got, want, s.Err())
	}
}

func TestTeardownRunsEveryDisposerInReverseAndJoinsErrors(t *testing.T) {
	rt := newRT(t)
	var rec recorder
	e1, e3 := errors.New("one"), errors.New("three")
	s, err := rt.Root().Plugin(Plugin{Name: "p", Apply: func(ctx *Context, _ Config) error {
		for i, e := range []error{e1, nil, e3, nil} {
			i, e := i, e
			if _, err := ctx.Effect(fmt.Sprint("e", i), func(context.Context) error { rec.add(fmt.Sprint(i)); return e }); err != nil {
				return err
			}
		}
		_, err := ctx.Effect("panics", func(context.Context) error { rec.add("p"); panic("boom") })
		return err
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustState(t, s, StateActive)
	err = s.Dispose(testCtx(t))
	if got := rec.String(); got != "p,3,2,1,0" {
		t.Fatalf("disposers ran %s, want p,3,2,1,0", got)
	}
	if !errors.Is(err, e1) || !errors.Is(err, e3) || !strings.Contains(err.Error(), "panicked") {
		t.Fatalf("teardown error %v must report all three failures", err)
	}
	mustState(t, s, StateDisposed)
}

func TestPendingUntilProviderAppears(t *testing.T) {
	rt := newRT(t)
	var got atomic.Value
	dep, _ := rt.Root().Plugin(Plugin{Name: "dep", Inject: []Dep{Need("db")}, Apply: func(ctx *Context, _ Config) error {
		v, err := Get[string](ctx, "db")
		got.Store(v)
		return err
	}}, nil)
	mustState(t, dep, StatePending)

	prov, _ := rt.Root().Plugin(Plugin{Name: "db", Apply: func(ctx *Context, _ Config) error {
		return ctx.Provide("db", "conn-1")
	}}, nil)
	mustState(t, prov, StateActive)
	if err := dep.AwaitActive(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if got.Load() != "conn-1" {
		t.Fatalf("dependant saw %v", got.Load())
	}
	// Provider goes: dependant unloads before it and waits pending again.
	if err := prov.Dispose(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	mustState(t, dep, StatePending)
	if _, ok := rt.Service("db"); ok {
		t.Fatal("service outlived its provider")
	}
}

func TestProviderSwapRestartsDependants(t *testing.T) {
	rt := newRT(t)
	var seen recorder
	dep, _ := rt.Root().Plugin(Plugin{Name: "dep", Inject: []Dep{Need("svc")}, Apply: func(ctx *Context, _ Config) error {
		v, _ := Get[string](ctx, "svc")
		seen.add("load " + v)
		_, err := ctx.Effect("use", func(context.Context) error { seen.add("unload " + v); return nil })
		return err
	}}, nil)
	provider := func(v string) Plugin {
		return Plugin{Name: "p-" + v, Apply: func(ctx *Context, _ Config) error { return ctx.Provide("svc", v) }}
	}
	a, _ := rt.Root().Plugin(provider("a"), nil)
	b, _ := rt.Root().Plugin(provider("b"), nil)
	if err := dep.AwaitActive(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if err := b.Dispose(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if err := a.Dispose(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	want := "load a,unload a,load b,unload b,load a,unload a"
	if got := seen.String(); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	mustState(t, dep, StatePending)
}

func TestProviderWaitsForDependantsToUnload(t *testing.T) {
	rt := newRT(t)
	type conn struct{ closed atomic.Bool }
	var usedClosed atomic.Bool
	prov, _ := rt.Root().Plugin(Plugin{Name: "db", Apply: func(ctx *Context, _ Config) error {
		c := &conn{}
		if _, err := ctx.Effect("close conn", func(context.Context) error { c.closed.Store(true); return nil }); err != nil {
			return err
		}
		return ctx.Provide("db", c)
	}}, nil)
	// The dependant's teardown is slow and runs in another goroutine's
	// reconcile: the provider must still wait for it.
	release := make(chan struct{})
	dep, _ := rt.Root().Plugin(Plugin{Name: "user", Inject: []Dep{Need("db")}, Apply: func(ctx *Context, _ Config) error {
		c, err := Get[*conn](ctx, "db")
		if err != nil {
			return err
		}
		_, err = ctx.Effect("flush", func(context.Context) error {
			<-release
			usedClosed.Store(c.closed.Load())
			return nil
		})
		return err
	}}, nil)
	mustState(t, dep, StateActive)
	done := make(chan error, 1)
	go func() { done <- prov.Dispose(context.Background()) }()
	if err := dep.AwaitState(testCtx(t), StateUnloading); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
		t.Fatal("provider finished before its dependant unloaded")
	default:
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if usedClosed.Load() {
		t.Fatal("dependant's disposer saw the provider's resource already closed")
	}
}

func TestFailedApplyRollsBack(t *testing.T) {
	rt := newRT(t)
	var rec recorder
	var attempts atomic.Int32
	boom := errors.New("boom")
	s, _ := rt.Root().Plugin(Plugin{Name: "flaky", Apply: func(ctx *Context, _ Config) error {
		n := attempts.Add(1)
		if _, err := ctx.Effect("a", func(context.Context) error { rec.add(fmt.Sprint("a", n)); return nil }); err != nil {
			return err
		}
		if err := ctx.Provide("half", n); err != nil {
			return err
		}
		if _, err := ctx.Plugin(Plugin{Name: "kid", Apply: func(k *Context, _ Config) error {
			_, err := k.Effect("k", func(context.Context) error { rec.add(fmt.Sprint("k", n)); return nil })
			return err
		}}, nil); err != nil {
			return err
		}
		if n == 1 {
			return boom
		}
		return nil
	}}, nil)
	mustState(t, s, StateFailed)
	if !errors.Is(s.Err(), boom) {
		t.Fatalf("Err = %v", s.Err())
	}
	if got := rec.String(); got != "k1,a1" {
		t.Fatalf("rollback ran %q, want k1,a1", got)
	}
	if _, ok := rt.Service("half"); ok {
		t.Fatal("failed plugin's service survived rollback")
	}
	if len(s.Effects()) != 0 {
		t.Fatalf("effects left: %v", s.Effects())
	}
	if err := s.Restart(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	mustState(t, s, StateActive)
	if v, _ := rt.Service("half"); v != int32(2) {
		t.Fatalf("service = %v", v)
	}
}

func TestApplyPanicIsFailure(t *testing.T) {
	rt := newRT(t)
	s, _ := rt.Root().Plugin(Plugin{Name: "panics", Apply: func(*Context, Config) error { panic("nope") }}, nil)
	mustState(t, s, StateFailed)
	if err := s.AwaitActive(testCtx(t)); !errors.Is(err, ErrFailed) {
		t.Fatalf("AwaitActive = %v", err)
	}
}

func TestEffectWhileUnloadingIsRefused(t *testing.T) {
	rt := newRT(t)
	var lateErr error
	s, _ := rt.Root().Plugin(Plugin{Name: "p", Apply: func(ctx *Context, _ Config) error {
		_, err := ctx.Effect("registers late", func(context.Context) error {
			_, lateErr = ctx.Effect("late", func(context.Context) error { return nil })
			return nil
		})
		return err
	}}, nil)
	if err := s.Dispose(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(lateErr, ErrNotActive) {
		t.Fatalf("late effect err = %v, want ErrNotActive", lateErr)
	}
	if len(s.Effects()) != 0 {
		t.Fatal("late effect leaked")
	}
}

func TestAcquireUndoesWhenRefused(t *testing.T) {
	rt := newRT(t)
	var ctxSaved *Context
	s, _ := rt.Root().Plugin(Plugin{Name: "p", Apply: func(ctx *Context, _ Config) error { ctxSaved = ctx; return nil }}, nil)
	if err := s.Dispose(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	undone := false
	_, err := ctxSaved.Acquire("thing", func() (Disposer, error) {
		return func(context.Context) error { undone = true; return nil }, nil
	})
	if !errors.Is(err, ErrNotActive) || !undone {
		t.Fatalf("err=%v undone=%v", err, undone)
	}
	if err := ctxSaved.Provide("x", 1); !errors.Is(err, ErrNotActive) {
		t.Fatalf("Provide on disposed scope = %v", err)
	}
	if _, ok := rt.Service("x"); ok {
		t.Fatal("refused provide stayed visible")
	}
}

func TestStaleContextAfterRestart(t *testing.T) {
	rt := newRT(t)
	var first *Context
	s, _ := rt.Root().Plugin(Plugin{Name: "p", Apply: func(ctx *Context, _ Config) error {
		if first == nil {
			first = ctx
		}
		return nil
	}}, nil)
	if err := s.Restart(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := first.Effect("stale", nil); !errors.Is(err, ErrNotActive) {
		t.Fatalf("stale context registered an effect: %v", err)
	}
	if first.Context().Err() == nil {
		t.Fatal("stale context's Context() must be cancelled")
	}
}

func TestDisposeFromEveryStateEndsDisposed(t *testing.T) {
	rt := newRT(t)
	pending, _ := rt.Root().Plugin(Plugin{Name: "pending", Inject: []Dep{Need("never")}, Apply: func(*Context, Config) error { return nil }}, nil)
	failed, _ := rt.Root().Plugin(Plugin{Name: "failed", Apply: func(*Context, Config) error { return errors.New("x") }}, nil)
	active, _ := rt.Root().Plugin(Plugin{Name: "active", Apply: func(*Context, Config) error { return nil }}, nil)
	for _, s := range []*Scope{pending, failed, active} {
		if err := s.Dispose(testCtx(t)); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		mustState(t, s, StateDisposed)
		if err := s.Dispose(testCtx(t)); err != nil {
			t.Fatalf("second dispose of %s: %v", s, err)
		}
		if err := s.AwaitActive(testCtx(t)); !errors.Is(err, ErrDisposed) {
			t.Fatalf("AwaitActive on disposed = %v", err)
		}
	}
	if n := len(rt.Scopes()); n != 1 {
		t.Fatalf("scopes left: %v", rt.Scopes())
	}
}

func TestDisposeWhileLoading(t *testing.T) {
	rt := newRT(t)
	entered, release := make(chan struct{}), make(chan struct{})
	var disposed atomic.Bool
	go func() {
		_, _ = rt.Root().Plugin(Plugin{Name: "slow", Apply: func(ctx *Context, _ Config) error {
			close(entered)
			<-release
			_, err := ctx.Effect("x", func(context.Context) error { disposed.Store(true); return nil })
			return err
		}}, nil)
	}()
	<-entered
	var slow *Scope
	for _, in := range rt.Scopes() {
		if in.Name == "slow" {
			slow, _ = rt.Scope(in.ID)
		}
	}
	done := make(chan error, 1)
	go func() { done <- slow.Dispose(context.Background()) }()
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mustState(t, slow, StateDisposed)
	if !disposed.Load() {
		t.Fatal("effect registered during apply was not disposed")
	}
}

func TestOptionalDependency(t *testing.T) {
	rt := newRT(t)
	var seen recorder
	s, _ := rt.Root().Plugin(Plugin{Name: "opt", Inject: []Dep{Maybe("cache")}, Apply: func(ctx *Context, _ Config) error {
		if v, ok := ctx.Get("cache"); ok {
			seen.add(fmt.Sprint(v))
		} else {
			seen.add("none")
		}
		if _, ok := ctx.Get("undeclared"); ok {
			return errors.New("undeclared service visible")
		}
		return nil
	}}, nil)
	mustState(t, s, StateActive)
	c, _ := rt.Root().Plugin(Plugin{Name: "cache", Apply: func(ctx *Context, _ Config) error { return ctx.Provide("cache", "c1") }}, nil)
	if err := c.Dispose(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	mustState(t, s, StateActive)
	if got := seen.String(); got != "none,c1,none" {
		t.Fatalf("optional dep loads: %s", got)
	}
}

func TestGoroutinesGetScopeContextAndAreAwaited(t *testing.T) {
	rt := newRT(t)
	var stopped atomic.Bool
	started := make(chan struct{})
	s, _ := rt.Root().Plugin(Plugin{Name: "worker", Apply: func(ctx *Context, _ Config) error {
		return ctx.Go("loop", func(c context.Context) {
			close(started)
			<-c.Done()
			time.Sleep(10 * time.Millisecond) // a slow shutdown must still be awaited
			stopped.Store(true)
		})
	}}, nil)
	<-started
	if err := s.Dispose(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if !stopped.Load() {
		t.Fatal("dispose returned before the goroutine ended")
	}
}

func TestGoroutineThatWillNotStopIsReported(t *testing.T) {
	rt := New(Options{DisposeTimeout: 50 * time.Millisecond})
	release := make(chan struct{})
	defer close(release)
	s, _ := rt.Root().Plugin(Plugin{Name: "stuck", Apply: func(ctx *Context, _ Config) error {
		return ctx.Go("stuck", func(context.Context) { <-release })
	}}, nil)
	err := s.Dispose(testCtx(t))
	if err == nil || !strings.Contains(err.Error(), "still running") {
		t.Fatalf("err = %v", err)
	}
	mustState(t, s, StateDisposed)
}

func TestRestartsAreCoalesced(t *testing.T) {
	rt := newRT(t)
	var applies atomic.Int32
	entered, release := make(chan struct{}, 100), make(chan struct{})
	s, _ := rt.Root().Plugin(Plugin{Name: "p", Apply: func(*Context, Config) error {
		if applies.Add(1) == 2 {
			entered <- struct{}{}
			<-release
		}
		return nil
	}}, nil)
	first := make(chan error, 1)
	go func() { first <- s.Restart(context.Background()) }()
	<-entered // the restart's apply is running
	// Twenty more restart requests land while it runs. Each does what
	// Restart does before it waits: record the wish and kick, which returns
	// at once because a transition is running.
	for range 20 {
		s.mu.Lock()
		s.restart = true
		s.mu.Unlock()
		s.kick(context.Background())
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := s.AwaitActive(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if n := applies.Load(); n != 3 {
		t.Fatalf("apply ran %d times; the initial load, the running restart and one coalesced restart make 3", n)
	}
}

func TestConcurrentLoadUnload(t *testing.T) {
	rt := newRT(t)
	prov, _ := rt.Root().Plugin(Plugin{Name: "svc", Apply: func(ctx *Context, _ Config) error { return ctx.Provide("svc", 1) }}, nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				s, err := rt.Root().Plugin(Plugin{Name: fmt.Sprint("w", i), Inject: []Dep{Need("svc")}, Apply: func(ctx *Context, _ Config) error {
					return ctx.Go("g", func(c context.Context) { <-c.Done() })
				}}, nil)
				if err != nil {
					t.Error(err)
					return
				}
				if err := s.Dispose(context.Background()); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	for range 20 {
		_ = prov.Restart(context.Background())
	}
	wg.Wait()
	if n := len(rt.Scopes()); n != 2 {
		t.Fatalf("scopes left: %d", n)
	}
}

func TestReconfigure(t *testing.T) {
	rt := newRT(t)
	var applies, reconf atomic.Int32
	live, _ := rt.Root().Plugin(Plugin{Name: "live",
		Apply:       func(*Context, Config) error { applies.Add(1); return nil },
		Reconfigure: func(*Context, Config) error { reconf.Add(1); return nil },
	}, Config{"a": 1})
	if err := live.Reconfigure(testCtx(t), Config{"a": 2}); err != nil {
		t.Fatal(err)
	}
	if applies.Load() != 1 || reconf.Load() != 1 || live.Config()["a"] != 2 {
		t.Fatalf("live reconfigure: applies=%d reconf=%d cfg=%v", applies.Load(), reconf.Load(), live.Config())
	}
	var got atomic.Value
	restarting, _ := rt.Root().Plugin(Plugin{Name: "restart", Apply: func(_ *Context, c Config) error { got.Store(c["a"]); return nil }}, Config{"a": 1})
	if err := restarting.Reconfigure(testCtx(t), Config{"a": 2}); err != nil {
		t.Fatal(err)
	}
	if got.Load() != 2 {
		t.Fatalf("restart reconfigure saw %v", got.Load())
	}
}

func TestInjectIsAnAnonymousChild(t *testing.T) {
	rt := newRT(t)
	var inner atomic.Int32
	parent, _ := rt.Root().Plugin(Plugin{Name: "host", Apply: func(ctx *Context, _ Config) error {
		_, err := ctx.Inject([]Dep{Need("web")}, func(c *Context) error {
			inner.Add(1)
			_, err := c.Effect("route", func(context.Context) error { inner.Add(-1); return nil })
			return err
		})
		return err
	}}, nil)
	mustState(t, parent, StateActive) // the parent runs even though "web" is missing
	if inner.Load() != 0 {
		t.Fatal("inject body ran without its service")
	}
	web, _ := rt.Root().Plugin(Plugin{Name: "web", Apply: func(ctx *Context, _ Config) error { return ctx.Provide("web", true) }}, nil)
	if inner.Load() != 1 {
		t.Fatal("inject body did not run once web appeared")
	}
	_ = web.Dispose(testCtx(t))
	if inner.Load() != 0 {
		t.Fatal("inject body's effect survived web going away")
	}
	mustState(t, parent, StateActive)
}
