package app

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// Context is what a plugin's Apply receives: its handle on the scope it was
// loaded into. Everything it registers through the Context is an effect of
// that scope and is undone, newest first, when the scope unloads.
//
// A Context belongs to one load of its scope: after a restart the old
// Context refuses new effects, so a handler left over from the previous
// load cannot leak into the next.
type Context struct {
	scope *Scope
	gen   uint64
}

// Scope is the scope this context registers into.
func (c *Context) Scope() *Scope { return c.scope }

// Runtime is the runtime the scope lives in.
func (c *Context) Runtime() *Runtime { return c.scope.rt }

// Logger is the plugin's logger, named after it.
func (c *Context) Logger() *zap.Logger { return c.scope.log }

// Context is cancelled when the current load of the scope ends.
func (c *Context) Context() context.Context {
	s := c.scope
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.loadCtx == nil || s.gen != c.gen {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx
	}
	return s.loadCtx
}

// Effect registers a disposer for something the plugin already did. It
// returns a function that disposes the effect early (and removes it from
// the scope). Registering on a scope that is unloading is an error (never
// a silent leak); the caller must then undo what it did itself, which
// Acquire does for you.
func (c *Context) Effect(label string, dispose Disposer) (Disposer, error) {
	e, err := c.scope.addEffect(c.gen, label, dispose)
	if err != nil {
		return nil, err
	}
	return c.early(e), nil
}

// Acquire does something and registers its undo as one step: when the
// scope refuses the effect, the undo runs at once and the error is
// returned.
func (c *Context) Acquire(label string, do func() (Disposer, error)) (Disposer, error) {
	dispose, err := do()
	if err != nil {
		return nil, err
	}
	early, err := c.Effect(label, dispose)
	if err != nil {
		if dispose != nil {
			_ = dispose(context.Background())
		}
		return nil, err
	}
	return early, nil
}

// early returns a disposer that runs e now if the scope still holds it.
func (c *Context) early(e *effect) Disposer {
	s := c.scope
	return func(ctx context.Context) error {
		s.mu.Lock()
		removed := s.effects.remove(e)
		s.mu.Unlock()
		if !removed {
			return nil
		}
		return e.run(ctx)
	}
}

// Provide makes value the service name for as long as this scope is
// loaded. Providing a name that already has a provider replaces it, and
// the scopes that inject it restart onto the new value; when this scope
// unloads, they restart onto the previous provider, or wait pending.
func (c *Context) Provide(name string, value any) error {
	rt := c.scope.rt
	_, err := c.Acquire("provide "+name, func() (Disposer, error) {
		p, err := rt.provide(context.Background(), c.scope, name, value)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) error { return rt.withdraw(ctx, name, p) }, nil
	})
	return err
}

// Get returns an injected service. Only services named in the plugin's
// Inject are visible, so a plugin's dependencies are all declared.
func (c *Context) Get(name string) (any, bool) {
	s := c.scope
	if s.parent == nil {
		return s.rt.Service(name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.bound[name]
	if !ok || !b.ok || s.gen != c.gen {
		return nil, false
	}
	return b.value, true
}

// Get returns the injected service name as a T.
func Get[T any](c *Context, name string) (T, error) {
	var zero T
	v, ok := c.Get(name)
	if !ok {
		return zero, fmt.Errorf("%w: %q in %s", ErrNotInjected, name, c.scope)
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("app: service %q is %T, not %T", name, v, zero)
	}
	return t, nil
}

// Plugin loads p as a child scope. The child's disposal is an effect of
// this scope. Plugin returns once the child has settled: active, pending
// on a service, or failed (see the returned scope's State and Err).
func (c *Context) Plugin(p Plugin, cfg Config) (*Scope, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	child := c.scope.rt.newScope(c.scope, p, cfg)
	e, err := c.scope.addEffect(c.gen, "plugin "+child.String(), func(ctx context.Context) error {
		return child.Dispose(ctx)
	})
	if err != nil {
		c.scope.rt.forget(child)
		return nil, err
	}
	parent := c.scope
	parent.mu.Lock()
	child.parentEffect = e
	parent.children[child] = struct{}{}
	parent.mu.Unlock()
	c.scope.rt.indexDependant(child)
	child.kick(context.Background())
	return child, nil
}

// Inject runs fn in an anonymous child scope once deps are available, and
// undoes what it registered when one of them goes away.
func (c *Context) Inject(deps []Dep, fn func(ctx *Context) error) (*Scope, error) {
	return c.Plugin(Plugin{
		Name:   c.scope.plugin.Name + "/inject",
		Inject: deps,
		Apply:  func(ctx *Context, _ Config) error { return fn(ctx) },
	}, nil)
}

// Go runs fn in a goroutine tied to this scope: fn's context is cancelled
// when the scope unloads, and the unload waits for fn to return.
func (c *Context) Go(label string, fn func(ctx context.Context)) error {
	_, err := c.Acquire("goroutine "+label, func() (Disposer, error) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			fn(ctx)
		}()
		timeout := c.scope.rt.disposeTimeout
		return func(context.Context) error {
			cancel()
			timer := time.NewTimer(timeout)
			defer timer.Stop()
			select {
			case <-done:
				return nil
			case <-timer.C:
				return fmt.Errorf("goroutine %q still running after %s", label, timeout)
			}
		}, nil
	})
	return err
}
