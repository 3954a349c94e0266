package loader

import "fmt"

// ChangeKind says what happened to an entry between two versions of the file.
type ChangeKind int

// The kinds start at 1 so that a zero Change is recognisably not filled in.
const (
	// Added entries are in the new file only: start them.
	Added ChangeKind = iota + 1
	// Removed entries are in the old file only: stop them.
	Removed
	// Changed entries exist in both files with a different name, disabled
	// flag or config: reconfigure or restart them (see Change.ConfigOnly).
	Changed
	// Unchanged entries are equal in both files: leave them running.
	Unchanged
)

// String returns the kind's name in lower case, for logs.
func (k ChangeKind) String() string {
	switch k {
	case Added:
		return "added"
	case Removed:
		return "removed"
	case Changed:
		return "changed"
	case Unchanged:
		return "unchanged"
	}
	return fmt.Sprintf("ChangeKind(%d)", int(k))
}

// Change is what happened to one entry. Old is nil for Added and New is nil
// for Removed. Both point into the Files given to Diff: treat them as
// read-only.
type Change struct {
	Kind ChangeKind
	ID   string
	Old  *Entry
	New  *Entry
}

// ConfigOnly tells whether only the entry's config changed (same plugin, same
// disabled flag). The runtime may then hand the new config to a plugin that
// supports live reconfiguration instead of restarting it, which keeps its
// connections and state.
func (c Change) ConfigOnly() bool {
	return c.Kind == Changed && c.Old != nil && c.New != nil &&
		c.Old.Name == c.New.Name && c.Old.Disabled == c.New.Disabled &&
		!jsonEqual(c.Old.Config, c.New.Config)
}

// String describes the change for logs, e.g. "changed db (config)".
func (c Change) String() string {
	if c.Kind != Changed || c.Old == nil || c.New == nil {
		return c.Kind.String() + " " + c.ID
	}
	var what string
	switch {
	case c.Old.Name != c.New.Name:
		what = "plugin " + c.Old.Name + " -> " + c.New.Name
	case c.Old.Disabled != c.New.Disabled && c.New.Disabled:
		what = "disabled"
	case c.Old.Disabled != c.New.Disabled:
		what = "enabled"
	default:
		what = "config"
	}
	return c.Kind.String() + " " + c.ID + " (" + what + ")"
}

// Diff pairs the entries of two versions of the file by id and reports what
// happened to each: entries of new in new-file order, then entries only in
// old in old-file order. Pairing by id rather than by position means that
// reordering entries restarts nothing. An entry whose plugin name changed is
// reported as Changed with both sides rather than as Removed plus Added, so
// the runtime sees one event for one id. Either file may be nil (no entries).
func Diff(old, new *File) []Change {
	var oldEntries, newEntries []Entry
	if old != nil {
		oldEntries = old.Plugins
	}
	if new != nil {
		newEntries = new.Plugins
	}
	oldByID := make(map[string]*Entry, len(oldEntries))
	for i := range oldEntries {
		oldByID[oldEntries[i].ID] = &oldEntries[i]
	}
	changes := make([]Change, 0, len(newEntries)+len(oldEntries))
	seen := make(map[string]bool, len(newEntries))
	for i := range newEntries {
		n := &newEntries[i]
		seen[n.ID] = true
		o, ok := oldByID[n.ID]
		switch {
		case !ok:
			changes = append(changes, Change{Kind: Added, ID: n.ID, New: n})
		case entriesEqual(o, n):
			changes = append(changes, Change{Kind: Unchanged, ID: n.ID, Old: o, New: n})
		default:
			changes = append(changes, Change{Kind: Changed, ID: n.ID, Old: o, New: n})
		}
	}
	for i := range oldEntries {
		o := &oldEntries[i]
		if !seen[o.ID] {
			changes = append(changes, Change{Kind: Removed, ID: o.ID, Old: o})
		}
	}
	return changes
}

func entriesEqual(a, b *Entry) bool {
	return a.Name == b.Name && a.Disabled == b.Disabled && jsonEqual(a.Config, b.Config)
}

// Effective drops Unchanged entries: what an Applier needs to act on.
func Effective(changes []Change) []Change {
	out := make([]Change, 0, len(changes))
	for _, c := range changes {
		if c.Kind != Unchanged {
			out = append(out, c)
		}
	}
	return out
}

// HostChanged tells whether the host section differs between two versions.
// Host settings are not plugin entries, so Diff does not report them; the
// host decides itself which of its settings it can change while running.
func HostChanged(old, new *File) bool {
	var a, b map[string]any
	if old != nil {
		a = old.Host
	}
	if new != nil {
		b = new.Host
	}
	return !jsonEqual(a, b)
}
