package app

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// provision is one scope's offer of a service.
type provision struct {
	provider *Scope
	value    any
}

// slot holds every live provision of one service name. The newest one is
// the service; when it goes, the previous one (if its provider is still
// active) becomes the service again. Each change of the visible provision
// gets a new epoch, which is how dependants notice a swap.
type slot struct {
	stack []*provision
	epoch uint64
}

func (s *slot) top() *provision {
	if len(s.stack) == 0 {
		return nil
	}
	return s.stack[len(s.stack)-1]
}

// binding is what a scope saw of a service when it loaded.
type binding struct {
	value any
	epoch uint64
	ok    bool
}

// lookupLocked returns the visible value of name. Caller holds rt.svcMu.
func (rt *Runtime) lookupLocked(name string) binding {
	sl := rt.slots[name]
	if sl == nil {
		return binding{}
	}
	p := sl.top()
	if p == nil {
		return binding{epoch: sl.epoch}
	}
	return binding{value: p.value, epoch: sl.epoch, ok: true}
}

// Service returns the current value of a service, for code outside the
// scope tree (the web server asking for the admission service on every
// request, an embedding program).
func (rt *Runtime) Service(name string) (any, bool) {
	rt.svcMu.RLock()
	defer rt.svcMu.RUnlock()
	b := rt.lookupLocked(name)
	return b.value, b.ok
}

// Services lists the names that currently have a provider, with the
// provider's scope id.
func (rt *Runtime) Services() map[string]uint64 {
	rt.svcMu.RLock()
	defer rt.svcMu.RUnlock()
	out := make(map[string]uint64, len(rt.slots))
	for name, sl := range rt.slots {
		if p := sl.top(); p != nil {
			out[name] = p.provider.id
		}
	}
	return out
}

// provide makes value the visible service name and restarts the scopes
// that depend on it.
func (rt *Runtime) provide(ctx context.Context, provider *Scope, name string, value any) (*provision, error) {
	if name == "" {
		return nil, fmt.Errorf("app: provide: empty service name")
	}
	p := &provision{provider: provider, value: value}
	rt.svcMu.Lock()
	sl := rt.slots[name]
	if sl == nil {
		sl = &slot{}
		rt.slots[name] = sl
	}
	sl.stack = append(sl.stack, p)
	rt.epochSeq++
	sl.epoch = rt.epochSeq
	deps := rt.dependantsLocked(name)
	rt.svcMu.Unlock()

	provider.log.Debug("service provided", zap.String("service", name))
	for _, d := range deps {
		d.kick(ctx)
	}
	return p, nil
}

// withdraw removes a provision. When it was the visible one, dependants
// are unloaded first and waited for, so a service never disappears under a
// scope that still uses it (the rule grafana/dskit keeps for its
// dependencies; Cordis tears both down at once).
func (rt *Runtime) withdraw(ctx context.Context, name string, p *provision) error {
	rt.svcMu.Lock()
	sl := rt.slots[name]
	if sl == nil {
		rt.svcMu.Unlock()
		return nil
	}
	wasTop := sl.top() == p
	for i, q := range sl.stack {
		if q == p {
			sl.stack = append(sl.stack[:i], sl.stack[i+1:]...)
			break
		}
	}
	var deps []*Scope
	oldEpoch := sl.epoch
	if wasTop {
		rt.epochSeq++
		sl.epoch = rt.epochSeq
		deps = rt.dependantsLocked(name)
	}
	if len(sl.stack) == 0 && len(rt.dependants[name]) == 0 {
		delete(rt.slots, name)
	}
	rt.svcMu.Unlock()
	if !wasTop {
		return nil
	}
	p.provider.log.Debug("service withdrawn", zap.String("service", name))
	for _, d := range deps {
		d.kick(ctx)
	}
	return rt.awaitReleased(ctx, name, oldEpoch, deps)
}

// awaitReleased waits until no dependant still holds the provision seen at
// epoch: each has unloaded (or reloaded onto another provider), or is one
// of the scopes whose transition is running on this very call stack.
func (rt *Runtime) awaitReleased(ctx context.Context, name string, epoch uint64, deps []*Scope) error {
	deadline, cancel := context.WithTimeout(ctx, rt.disposeTimeout)
	defer cancel()
	for _, d := range deps {
		if inChain(ctx, d) {
			continue
		}
		err := d.awaitCond(deadline, func() bool {
			return !d.state.holdsServices() || !d.bindsLocked(name, epoch)
		})
		if err != nil {
			return fmt.Errorf("service %q: dependant %s did not unload: %w", name, d, err)
		}
	}
	return nil
}

// dependantsLocked copies the scopes that inject name. Caller holds svcMu.
func (rt *Runtime) dependantsLocked(name string) []*Scope {
	set := rt.dependants[name]
	out := make([]*Scope, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	return out
}

func (rt *Runtime) indexDependant(s *Scope) {
	rt.svcMu.Lock()
	defer rt.svcMu.Unlock()
	for _, d := range s.plugin.Inject {
		set := rt.dependants[d.Name]
		if set == nil {
			set = map[*Scope]struct{}{}
			rt.dependants[d.Name] = set
		}
		set[s] = struct{}{}
	}
}

func (rt *Runtime) unindexDependant(s *Scope) {
	rt.svcMu.Lock()
	defer rt.svcMu.Unlock()
	for _, d := range s.plugin.Inject {
		set := rt.dependants[d.Name]
		delete(set, s)
		if len(set) == 0 {
			delete(rt.dependants, d.Name)
			if sl := rt.slots[d.Name]; sl != nil && len(sl.stack) == 0 {
				delete(rt.slots, d.Name)
			}
		}
	}
}

// resolve reads the bindings a scope would get if it loaded now, and
// whether every required service is present.
func (rt *Runtime) resolve(deps []Dep) (map[string]binding, bool) {
	rt.svcMu.RLock()
	defer rt.svcMu.RUnlock()
	out := make(map[string]binding, len(deps))
	ready := true
	for _, d := range deps {
		b := rt.lookupLocked(d.Name)
		out[d.Name] = b
		if !b.ok && !d.Optional {
			ready = false
		}
	}
	return out, ready
}

const defaultDisposeTimeout = 30 * time.Second
