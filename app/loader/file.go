package loader

// Entry is one plugin entry of the file: which plugin to run, under which
// id, and with which configuration. One plugin may appear several times
// under different ids (two webservers on two ports, say).
type Entry struct {
	// ID identifies the entry across edits of the file; Diff pairs old and new
	// entries by it. It defaults to Name and must match
	// ^[a-z0-9][a-z0-9_.-]{0,63}$.
	ID string `yaml:"id" json:"id"`
	// Name is the plugin to run, as known to the Catalog.
	Name string `yaml:"name" json:"name"`
	// Disabled keeps the entry (and its config) in the file without running it.
	Disabled bool `yaml:"disabled" json:"disabled"`
	// Config is the entry's configuration after normalization against the
	// plugin's schema: defaults filled, numbers clamped, unknown keys removed.
	// It holds only JSON types: map[string]any, []any, string, int64, float64,
	// bool and nil.
	Config map[string]any `yaml:"config" json:"config"`
}

// File is a parsed, normalized and validated configuration file. A File is
// shared between the watcher, the runtime and callbacks, so treat it and the
// entries it holds as read-only.
type File struct {
	// Host is the host section, normalized against the caller's host schema.
	Host map[string]any
	// Plugins are the entries in file order.
	Plugins []Entry
	// Path is where the file was read from (as given to Parse or Load).
	Path string

	// sum is the SHA-256 of the bytes the File was parsed from; the watcher
	// uses it to ignore events that did not change the content.
	sum [32]byte
}

// Entry returns the entry with the given id.
func (f *File) Entry(id string) (Entry, bool) {
	if f == nil {
		return Entry{}, false
	}
	for _, e := range f.Plugins {
		if e.ID == id {
			return e, true
		}
	}
	return Entry{}, false
}
