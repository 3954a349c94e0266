package dsh

import (
	"context"

	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/kernel"
)

// PluginInfo describes one plugin entry of the host's config and its
// scope, as `dsh plugins ls` shows it.
type PluginInfo struct {
	// ID is the entry's id (the plugin's name unless the config sets one).
	ID string `json:"id"`
	// Plugin is the name of the plugin the entry runs.
	Plugin string `json:"plugin"`
	// Disabled entries stay in the config without being loaded at start.
	Disabled bool `json:"disabled"`
	// Loaded says the entry has a scope; State is that scope's state
	// (pending, loading, active, failed, …) or "unloaded".
	Loaded  bool   `json:"loaded"`
	ScopeID uint64 `json:"scope,omitempty"`
	State   string `json:"state"`
	// Error is why the scope failed, if it did.
	Error string `json:"error,omitempty"`
}

// ErrUnknownPlugin is returned for an entry id the config does not have.
var ErrUnknownPlugin = kernel.ErrUnknownEntry

// Plugins describes every entry of the config, in file order.
func (h *Host) Plugins() []PluginInfo {
	rows := h.entries.List()
	out := make([]PluginInfo, len(rows))
	for i, r := range rows {
		out[i] = PluginInfo(r)
	}
	return out
}

// PluginScope is the scope of a loaded entry, for waiting on it
// (AwaitActive) or inspecting its effects.
func (h *Host) PluginScope(id string) (*app.Scope, bool) { return h.entries.Scope(id) }

// LoadPlugin loads an entry that is unloaded (or disabled in the config).
func (h *Host) LoadPlugin(ctx context.Context, id string) error { return h.entries.Load(ctx, id) }

// UnloadPlugin disposes an entry's scope: its routes, tools, services and
// goroutines are undone, newest first.
func (h *Host) UnloadPlugin(ctx context.Context, id string) error { return h.entries.Unload(ctx, id) }

// ReloadPlugin unloads and loads an entry again with its current config.
func (h *Host) ReloadPlugin(ctx context.Context, id string) error { return h.entries.Reload(ctx, id) }
