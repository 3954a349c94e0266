package kernel

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"go.uber.org/zap"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/app/loader"
)

// Entries keeps one root-level scope per enabled entry of the config
// file. It applies the loader's diffs (restarting only what changed) and
// the admin API's load/unload/reload requests, one at a time.
type Entries struct {
	rt  *app.Runtime
	cat Catalog
	log *zap.Logger

	mu      sync.Mutex
	order   []string
	entries map[string]loader.Entry
	scopes  map[string]*app.Scope
}

var _ loader.Applier = (*Entries)(nil)

// ErrUnknownEntry is returned for an id the config file does not have.
var ErrUnknownEntry = errors.New("unknown plugin entry")

// NewEntries returns an empty set bound to rt.
func NewEntries(rt *app.Runtime, cat Catalog, log *zap.Logger) *Entries {
	return &Entries{rt: rt, cat: cat, log: log.Named("entries"), entries: map[string]loader.Entry{}, scopes: map[string]*app.Scope{}}
}

// LoadFile loads every enabled entry of a freshly parsed file.
func (m *Entries) LoadFile(ctx context.Context, f *loader.File) error {
	changes := make([]loader.Change, 0, len(f.Plugins))
	for i := range f.Plugins {
		e := f.Plugins[i]
		changes = append(changes, loader.Change{Kind: loader.Added, ID: e.ID, New: &e})
	}
	return m.ApplyChanges(ctx, changes)
}

// ApplyChanges implements loader.Applier: added entries load, removed
// ones are disposed, a config-only change is handed to the running scope
// (live if the plugin accepts it, else by restart), anything else is
// replaced. Entries that did not change are not touched.
func (m *Entries) ApplyChanges(ctx context.Context, changes []loader.Change) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var errs []error
	for _, c := range changes {
		if err := m.applyLocked(ctx, c); err != nil {
			errs = append(errs, fmt.Errorf("entry %q: %w", c.ID, err))
		}
	}
	return errors.Join(errs...)
}

func (m *Entries) applyLocked(ctx context.Context, c loader.Change) error {
	switch c.Kind {
	case loader.Added:
		m.remember(*c.New)
		if c.New.Disabled {
			return nil
		}
		return m.startLocked(*c.New)
	case loader.Removed:
		err := m.stopLocked(ctx, c.ID)
		m.forget(c.ID)
		return err
	case loader.Changed:
		m.remember(*c.New)
		if s := m.scopes[c.ID]; s != nil && c.ConfigOnly() && !c.New.Disabled {
			m.log.Info("reconfiguring plugin", zap.String("entry", c.ID))
			return s.Reconfigure(ctx, app.Config(c.New.Config))
		}
		if err := m.stopLocked(ctx, c.ID); err != nil {
			m.log.Warn("old instance reported errors while stopping", zap.String("entry", c.ID), zap.Error(err))
		}
		if c.New.Disabled {
			return nil
		}
		return m.startLocked(*c.New)
	}
	return nil
}

func (m *Entries) remember(e loader.Entry) {
	if _, ok := m.entries[e.ID]; !ok {
		m.order = append(m.order, e.ID)
	}
	m.entries[e.ID] = e
}

func (m *Entries) forget(id string) {
	delete(m.entries, id)
	for i, o := range m.order {
		if o == id {
			m.order = append(m.order[:i], m.order[i+1:]...)
			break
		}
	}
}

func (m *Entries) startLocked(e loader.Entry) error {
	p, ok := m.cat[e.Name]
	if !ok {
		return fmt.Errorf("no plugin named %q", e.Name)
	}
	s, err := m.rt.Root().Plugin(p, app.Config(e.Config))
	if err != nil {
		return err
	}
	m.scopes[e.ID] = s
	m.log.Info("plugin loaded", zap.String("entry", e.ID), zap.String("plugin", e.Name), zap.Stringer("state", s.State()))
	if s.State() == app.StateFailed {
		return s.Err()
	}
	return nil
}

func (m *Entries) stopLocked(ctx context.Context, id string) error {
	s := m.scopes[id]
	if s == nil {
		return nil
	}
	delete(m.scopes, id)
	err := s.Dispose(ctx)
	m.log.Info("plugin unloaded", zap.String("entry", id))
	return err
}

// Load starts an entry that is not running (also a disabled one).
func (m *Entries) Load(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[id]
	if !ok {
		return fmt.Errorf("%w: %q", ErrUnknownEntry, id)
	}
	if m.scopes[id] != nil {
		return nil
	}
	return m.startLocked(e)
}

// Unload disposes an entry's scope; the entry stays known.
func (m *Entries) Unload(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.entries[id]; !ok {
		return fmt.Errorf("%w: %q", ErrUnknownEntry, id)
	}
	return m.stopLocked(ctx, id)
}

// Reload restarts an entry (or starts it if it was unloaded).
func (m *Entries) Reload(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[id]
	if !ok {
		return fmt.Errorf("%w: %q", ErrUnknownEntry, id)
	}
	if s := m.scopes[id]; s != nil {
		return s.Restart(ctx)
	}
	return m.startLocked(e)
}

// DisposeAll unloads every entry, the newest first.
func (m *Entries) DisposeAll(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var errs []error
	for i := len(m.order) - 1; i >= 0; i-- {
		if err := m.stopLocked(ctx, m.order[i]); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// EntryInfo is a row of `dsh plugins ls`.
type EntryInfo struct {
	ID       string `json:"id"`
	Plugin   string `json:"plugin"`
	Disabled bool   `json:"disabled"`
	Loaded   bool   `json:"loaded"`
	ScopeID  uint64 `json:"scope,omitempty"`
	State    string `json:"state"`
	Error    string `json:"error,omitempty"`
}

// List describes every entry in file order.
func (m *Entries) List() []EntryInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]EntryInfo, 0, len(m.order))
	for _, id := range m.order {
		e := m.entries[id]
		row := EntryInfo{ID: id, Plugin: e.Name, Disabled: e.Disabled, State: "unloaded"}
		if s := m.scopes[id]; s != nil {
			row.Loaded, row.ScopeID, row.State = true, s.ID(), s.State().String()
			if err := s.Err(); err != nil {
				row.Error = err.Error()
			}
		}
		out = append(out, row)
	}
	return out
}

// Scope returns the running scope of an entry.
func (m *Entries) Scope(id string) (*app.Scope, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.scopes[id]
	return s, ok
}

// IDs lists entry ids, sorted.
func (m *Entries) IDs() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := append([]string(nil), m.order...)
	sort.Strings(out)
	return out
}
