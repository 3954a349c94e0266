package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Scope is one loaded plugin: Cordis calls it a fiber. It owns the effects
// the plugin registered and is itself an effect of its parent, so
// disposing a parent disposes its whole subtree, newest first.
//
// Transitions of one scope are serialized: whoever asks for one while
// another is running only records the wish (dispose, restart, new config)
// and the running transition picks it up when it finishes, so a burst of
// restart requests becomes one restart.
type Scope struct {
	rt     *Runtime
	id     uint64
	parent *Scope
	plugin Plugin
	log    *zap.Logger

	mu           sync.Mutex
	state        State
	gen          uint64 // bumped at each load; a stale Context cannot add effects
	config       Config
	err          error // why the last apply failed
	teardownErr  error // what the last unload reported
	dead         bool  // Dispose was asked
	restart      bool  // Restart was asked
	reconfig     *Config
	reconciling  bool
	bound        map[string]binding // services seen by the current load
	failedBound  map[string]binding // services seen by the failed load
	effects      effectList
	children     map[*Scope]struct{}
	parentEffect *effect
	changed      chan struct{}
	loadCtx      context.Context
	loadCancel   context.CancelFunc
	since        time.Time
}

func (s *Scope) String() string { return fmt.Sprintf("%s#%d", s.plugin.Name, s.id) }

// ID is unique within the runtime.
func (s *Scope) ID() uint64 { return s.id }

// Name is the plugin's name.
func (s *Scope) Name() string { return s.plugin.Name }

// Parent is nil for the root.
func (s *Scope) Parent() *Scope { return s.parent }

// State is the current state.
func (s *Scope) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Err is the error of the last failed apply, or nil.
func (s *Scope) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Config is the config the scope was last given.
func (s *Scope) Config() Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.config
}

// signal wakes every waiter. Caller holds s.mu.
func (s *Scope) signal() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Scope) setState(st State) {
	s.state = st
	s.since = time.Now()
	s.signal()
}

// kick runs transitions until the scope has nothing left to do, unless a
// transition is already running elsewhere, which will see the new wish.
func (s *Scope) kick(ctx context.Context) {
	s.mu.Lock()
	if s.reconciling {
		s.mu.Unlock()
		return
	}
	s.reconciling = true
	s.mu.Unlock()
	// Teardown must not be cut short because the caller's context ended
	// (an admin request that timed out); waits inside are bounded on their own.
	ctx = withChain(context.WithoutCancel(ctx), s)
	for {
		step := s.next()
		if step == nil {
			return
		}
		step(ctx)
	}
}

// next decides the next transition, or ends the reconcile run.
func (s *Scope) next() func(context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.dead:
		if s.state != StateDisposed {
			return func(ctx context.Context) { s.unload(ctx, StateDisposed) }
		}
	case s.state == StateActive:
		if s.reconfig != nil {
			cfg := *s.reconfig
			s.reconfig = nil
			return func(ctx context.Context) { s.reconfigure(ctx, cfg) }
		}
		if s.restart || !s.bindingsCurrentLocked(s.bound) {
			s.restart = false
			return func(ctx context.Context) { s.unload(ctx, StatePending) }
		}
	case s.state == StatePending:
		s.restart = false
		if b, ready := s.rt.resolve(s.plugin.Inject); ready {
			return func(ctx context.Context) { s.load(ctx, b) }
		}
	case s.state == StateFailed:
		if s.restart || !s.bindingsCurrentLocked(s.failedBound) {
			s.restart = false
			s.setState(StatePending)
			return func(context.Context) {}
		}
	}
	s.reconciling = false
	s.signal()
	return nil
}

// bindingsCurrentLocked reports whether every injected service is still
// the one in b.
func (s *Scope) bindingsCurrentLocked(b map[string]binding) bool {
	now, _ := s.rt.resolve(s.plugin.Inject)
	for name, cur := range now {
		if b[name].epoch != cur.epoch || b[name].ok != cur.ok {
			return false
		}
	}
	return true
}

// bindsLocked reports whether the current load uses the provision visible
// at epoch. Caller holds s.mu.
func (s *Scope) bindsLocked(name string, epoch uint64) bool {
	b, ok := s.bound[name]
	return ok && b.ok && b.epoch == epoch
}

func (s *Scope) load(ctx context.Context, b map[string]binding) {
	s.mu.Lock()
	s.bound = b
	s.gen++
	s.loadCtx, s.loadCancel = context.WithCancel(context.Background())
	cfg := s.config
	s.setState(StateLoading)
	s.mu.Unlock()

	err := s.callApply(cfg)
	if err == nil {
		s.mu.Lock()
		s.err = nil
		s.setState(StateActive)
		s.mu.Unlock()
		s.log.Debug("scope active")
		return
	}

	s.log.Error("plugin apply failed; rolling back", zap.Error(err))
	s.mu.Lock()
	s.setState(StateUnloading)
	s.mu.Unlock()
	terr := s.teardown(ctx)
	s.mu.Lock()
	s.err = err
	s.teardownErr = terr
	s.failedBound = b
	s.bound = nil
	s.setState(StateFailed)
	s.mu.Unlock()
}

func (s *Scope) callApply(cfg Config) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("apply panicked: %v", r)
		}
	}()
	s.mu.Lock()
	c := &Context{scope: s, gen: s.gen}
	s.mu.Unlock()
	return s.plugin.Apply(c, cfg)
}

func (s *Scope) reconfigure(ctx context.Context, cfg Config) {
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("reconfigure panicked: %v", r)
			}
		}()
		s.mu.Lock()
		c := &Context{scope: s, gen: s.gen}
		s.mu.Unlock()
		return s.plugin.Reconfigure(c, cfg)
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.config = cfg
	if err != nil {
		// The plugin could not take the config live: a restart applies it.
		s.log.Warn("live reconfigure failed; restarting", zap.Error(err))
		s.restart = true
	}
	s.signal()
}

// unload runs every effect newest first and ends in to (pending or
// disposed).
func (s *Scope) unload(ctx context.Context, to State) {
	s.mu.Lock()
	s.setState(StateUnloading)
	s.mu.Unlock()

	err := s.teardown(ctx)
	if err != nil {
		s.log.Error("teardown reported errors", zap.Error(err))
	}

	s.mu.Lock()
	s.teardownErr = err
	s.bound = nil
	s.setState(to)
	s.mu.Unlock()
	if to == StateDisposed {
		s.detach()
		s.log.Debug("scope disposed")
	}
}

// teardown pops and runs effects one at a time, so every disposer is
// attempted, serially and in reverse order of registration, and all their
// errors are reported (Cordis runs overlapping teardowns: #26, #110, #144).
func (s *Scope) teardown(ctx context.Context) error {
	var errs []error
	for {
		s.mu.Lock()
		e := s.effects.pop()
		s.mu.Unlock()
		if e == nil {
			break
		}
		if err := e.run(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	s.mu.Lock()
	cancel := s.loadCancel
	s.loadCancel = nil
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	return errors.Join(errs...)
}

// detach forgets a disposed scope everywhere it was referenced.
func (s *Scope) detach() {
	s.rt.unindexDependant(s)
	if p := s.parent; p != nil {
		p.mu.Lock()
		if s.parentEffect != nil {
			p.effects.remove(s.parentEffect)
		}
		delete(p.children, s)
		p.mu.Unlock()
	}
	s.rt.forget(s)
}

// Dispose unloads the scope and its subtree and waits until it is
// disposed. It returns the errors its disposers reported. A scope always
// ends disposed, whatever state it was in (Cordis #127).
func (s *Scope) Dispose(ctx context.Context) error {
	s.mu.Lock()
	s.dead = true
	s.mu.Unlock()
	s.kick(ctx)
	if inChain(ctx, s) {
		return nil
	}
	if err := s.awaitCond(ctx, func() bool { return s.state == StateDisposed }); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.teardownErr
}

// Restart unloads and loads the scope again (or retries a failed one) and
// waits until it settles. It returns the apply error if the scope failed.
func (s *Scope) Restart(ctx context.Context) error {
	s.mu.Lock()
	s.restart = true
	s.mu.Unlock()
	return s.settle(ctx)
}

// Reconfigure gives the scope a new config: live, through the plugin's
// Reconfigure, when it has one and is active; otherwise by a restart.
func (s *Scope) Reconfigure(ctx context.Context, cfg Config) error {
	s.mu.Lock()
	switch {
	case s.state == StateActive && s.plugin.Reconfigure != nil:
		s.reconfig = &cfg
	default:
		s.config = cfg
		s.restart = true
	}
	s.mu.Unlock()
	return s.settle(ctx)
}

func (s *Scope) settle(ctx context.Context) error {
	s.kick(ctx)
	if inChain(ctx, s) {
		return nil
	}
	if err := s.awaitCond(ctx, func() bool { return !s.reconciling }); err != nil {
		return err
	}
	return s.stateErr()
}

func (s *Scope) stateErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case StateFailed:
		return fmt.Errorf("%w: %s: %w", ErrFailed, s, s.err)
	case StateDisposed:
		return ErrDisposed
	}
	return nil
}

// AwaitActive waits until the scope is active. It returns early with an
// error when the scope fails or is disposed, and keeps waiting while it is
// pending on a service.
func (s *Scope) AwaitActive(ctx context.Context) error {
	var err error
	waitErr := s.awaitCond(ctx, func() bool {
		switch s.state {
		case StateActive:
			return true
		case StateFailed:
			if s.reconciling {
				return false
			}
			err = fmt.Errorf("%w: %s: %w", ErrFailed, s, s.err)
			return true
		case StateDisposed:
			err = ErrDisposed
			return true
		}
		return false
	})
	if waitErr != nil {
		return waitErr
	}
	return err
}

// AwaitState waits until the scope is in one of states.
func (s *Scope) AwaitState(ctx context.Context, states ...State) error {
	return s.awaitCond(ctx, func() bool {
		for _, st := range states {
			if s.state == st {
				return true
			}
		}
		return false
	})
}

// awaitCond waits until pred, evaluated under s.mu, holds.
func (s *Scope) awaitCond(ctx context.Context, pred func() bool) error {
	for {
		s.mu.Lock()
		if pred() {
			s.mu.Unlock()
			return nil
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", s, ctx.Err())
		}
	}
}

// addEffect links an effect if the scope may still take one.
func (s *Scope) addEffect(gen uint64, label string, d Disposer) (*effect, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if (s.state != StateLoading && s.state != StateActive) || s.gen != gen {
		return nil, fmt.Errorf("%w: %s is %s; cannot register %q", ErrNotActive, s, s.state, label)
	}
	e := &effect{label: label, dispose: d}
	s.effects.push(e)
	return e, nil
}

// Effects lists the labels of the registered effects, oldest first.
func (s *Scope) Effects() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.effects.labels()
}
