package app

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// Runtime is the scope tree and its service table. The root scope is
// active from New until Dispose; plugins are loaded under it.
type Runtime struct {
	log            *zap.Logger
	disposeTimeout time.Duration
	root           *Scope
	nextID         atomic.Uint64

	svcMu      sync.RWMutex
	slots      map[string]*slot
	dependants map[string]map[*Scope]struct{}
	epochSeq   uint64

	scopesMu sync.RWMutex
	scopes   map[uint64]*Scope
}

// Options tune a Runtime.
type Options struct {
	// Logger receives the runtime's logs; each scope logs under its
	// plugin's name. Nil means no logging.
	Logger *zap.Logger
	// DisposeTimeout bounds each wait inside a teardown (a goroutine to
	// return, a dependant to unload). Default 30s.
	DisposeTimeout time.Duration
}

// New returns a runtime whose root scope is active.
func New(opts Options) *Runtime {
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	if opts.DisposeTimeout <= 0 {
		opts.DisposeTimeout = defaultDisposeTimeout
	}
	rt := &Runtime{
		log:            log,
		disposeTimeout: opts.DisposeTimeout,
		slots:          map[string]*slot{},
		dependants:     map[string]map[*Scope]struct{}{},
		scopes:         map[uint64]*Scope{},
	}
	root := rt.newScope(nil, Plugin{Name: "root", Apply: func(*Context, Config) error { return nil }}, nil)
	root.gen = 1
	root.state = StateActive
	rt.root = root
	return rt
}

func (rt *Runtime) newScope(parent *Scope, p Plugin, cfg Config) *Scope {
	s := &Scope{
		rt:       rt,
		id:       rt.nextID.Add(1),
		parent:   parent,
		plugin:   p,
		config:   cfg,
		children: map[*Scope]struct{}{},
		changed:  make(chan struct{}),
		since:    time.Now(),
	}
	s.log = rt.log.Named(p.Name).With(zap.Uint64("scope", s.id))
	rt.scopesMu.Lock()
	rt.scopes[s.id] = s
	rt.scopesMu.Unlock()
	return s
}

func (rt *Runtime) forget(s *Scope) {
	rt.scopesMu.Lock()
	delete(rt.scopes, s.id)
	rt.scopesMu.Unlock()
}

// Root is the context of the root scope: load top-level plugins with it.
func (rt *Runtime) Root() *Context {
	return &Context{scope: rt.root, gen: 1}
}

// Scope finds a live scope by id.
func (rt *Runtime) Scope(id uint64) (*Scope, bool) {
	rt.scopesMu.RLock()
	defer rt.scopesMu.RUnlock()
	s, ok := rt.scopes[id]
	return s, ok
}

// ScopeInfo is a row of the scope listing.
type ScopeInfo struct {
	ID       uint64    `json:"id"`
	Parent   uint64    `json:"parent,omitempty"`
	Name     string    `json:"name"`
	State    State     `json:"state"`
	Since    time.Time `json:"since"`
	Error    string    `json:"error,omitempty"`
	Inject   []Dep     `json:"inject,omitempty"`
	Effects  []string  `json:"effects,omitempty"`
	Children int       `json:"children"`
}

// Info describes the scope as it is now.
func (s *Scope) Info() ScopeInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := ScopeInfo{
		ID: s.id, Name: s.plugin.Name, State: s.state, Since: s.since,
		Inject: s.plugin.Inject, Effects: s.effects.labels(), Children: len(s.children),
	}
	if s.parent != nil {
		in.Parent = s.parent.id
	}
	if s.err != nil {
		in.Error = s.err.Error()
	}
	return in
}

// Scopes lists every live scope, by id.
func (rt *Runtime) Scopes() []ScopeInfo {
	rt.scopesMu.RLock()
	all := make([]*Scope, 0, len(rt.scopes))
	for _, s := range rt.scopes {
		all = append(all, s)
	}
	rt.scopesMu.RUnlock()
	sort.Slice(all, func(i, j int) bool { return all[i].id < all[j].id })
	out := make([]ScopeInfo, len(all))
	for i, s := range all {
		out[i] = s.Info()
	}
	return out
}

// Dispose disposes every scope, newest first, and returns every error the
// disposers reported.
func (rt *Runtime) Dispose(ctx context.Context) error {
	return rt.root.Dispose(ctx)
}
