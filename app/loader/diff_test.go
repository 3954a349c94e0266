package loader

import (
	"testing"
)

func entry(id, name string, disabled bool, config map[string]any) Entry {
	return Entry{ID: id, Name: name, Disabled: disabled, Config: config}
}

func kinds(changes []Change) map[string]ChangeKind {
	out := make(map[string]ChangeKind, len(changes))
	for _, c := range changes {
		out[c.ID] = c.Kind
	}
	return out
}

func TestDiffCases(t *testing.T) {
	old := &File{Plugins: []Entry{
		entry("same", "web", false, map[string]any{"port": int64(80)}),
		entry("cfg", "web", false, map[string]any{"port": int64(81)}),
		entry("flip", "counter", false, nil),
		entry("gone", "counter", false, nil),
		entry("renamed", "web", false, map[string]any{"port": int64(82)}),
	}}
	new := &File{Plugins: []Entry{
		entry("fresh", "counter", false, nil),
		entry("renamed", "counter", false, map[string]any{"port": int64(82)}),
		entry("flip", "counter", true, map[string]any{}),
		entry("cfg", "web", false, map[string]any{"port": int64(8081)}),
		entry("same", "web", false, map[string]any{"port": 80.0}),
	}}
	changes := Diff(old, new)
	wantOrder := []struct {
		id         string
		kind       ChangeKind
		configOnly bool
	}{
		{"fresh", Added, false},
		{"renamed", Changed, false},
		{"flip", Changed, false},
		{"cfg", Changed, true},
		{"same", Unchanged, false},
		{"gone", Removed, false},
	}
	if len(changes) != len(wantOrder) {
		t.Fatalf("got %d changes: %v", len(changes), changes)
	}
	for i, w := range wantOrder {
		c := changes[i]
		if c.ID != w.id || c.Kind != w.kind || c.ConfigOnly() != w.configOnly {
			t.Errorf("change %d = %v (configOnly %v), want %s %s (configOnly %v)", i, c, c.ConfigOnly(), w.kind, w.id, w.configOnly)
		}
	}
	if c := changes[0]; c.Old != nil || c.New == nil || c.New.Name != "counter" {
		t.Errorf("added: %+v", c)
	}
	if c := changes[5]; c.New != nil || c.Old == nil || c.Old.ID != "gone" {
		t.Errorf("removed: %+v", c)
	}
	if c := changes[1]; c.Old.Name != "web" || c.New.Name != "counter" {
		t.Errorf("renamed should carry both entries: %+v", c)
	}
}

func TestDiffReorderChangesNothing(t *testing.T) {
	a := &File{Plugins: []Entry{entry("a", "x", false, nil), entry("b", "y", false, nil)}}
	b := &File{Plugins: []Entry{entry("b", "y", false, nil), entry("a", "x", false, nil)}}
	if eff := Effective(Diff(a, b)); len(eff) != 0 {
		t.Fatalf("reorder produced %v", eff)
	}
}

func TestDiffNilFiles(t *testing.T) {
	f := &File{Plugins: []Entry{entry("a", "x", false, nil)}}
	if k := kinds(Diff(nil, f)); k["a"] != Added {
		t.Fatalf("got %v", k)
	}
	if k := kinds(Diff(f, nil)); k["a"] != Removed {
		t.Fatalf("got %v", k)
	}
	if len(Diff(nil, nil)) != 0 {
		t.Fatal("nil vs nil")
	}
}

func TestEffectiveDropsUnchanged(t *testing.T) {
	in := []Change{{Kind: Unchanged, ID: "a"}, {Kind: Added, ID: "b"}, {Kind: Unchanged, ID: "c"}, {Kind: Removed, ID: "d"}}
	out := Effective(in)
	if len(out) != 2 || out[0].ID != "b" || out[1].ID != "d" {
		t.Fatalf("got %v", out)
	}
}

func TestChangeKindString(t *testing.T) {
	for k, want := range map[ChangeKind]string{Added: "added", Removed: "removed", Changed: "changed", Unchanged: "unchanged", 0: "ChangeKind(0)"} {
		if got := k.String(); got != want {
			t.Errorf("%d: %q", int(k), got)
		}
	}
}

func TestChangeString(t *testing.T) {
	on, off := entry("e", "x", false, nil), entry("e", "x", true, nil)
	other := entry("e", "y", false, nil)
	cfg := entry("e", "x", false, map[string]any{"a": int64(1)})
	cases := map[string]Change{
		"added e":                   {Kind: Added, ID: "e", New: &on},
		"changed e (disabled)":      {Kind: Changed, ID: "e", Old: &on, New: &off},
		"changed e (enabled)":       {Kind: Changed, ID: "e", Old: &off, New: &on},
		"changed e (plugin x -> y)": {Kind: Changed, ID: "e", Old: &on, New: &other},
		"changed e (config)":        {Kind: Changed, ID: "e", Old: &on, New: &cfg},
	}
	for want, c := range cases {
		if got := c.String(); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestConfigOnlyNeedsSamePluginAndFlag(t *testing.T) {
	a := entry("e", "x", false, map[string]any{"a": int64(1)})
	b := entry("e", "x", true, map[string]any{"a": int64(2)})
	if (Change{Kind: Changed, ID: "e", Old: &a, New: &b}).ConfigOnly() {
		t.Fatal("disabled flip with config change is not config-only")
	}
	if (Change{Kind: Added, ID: "e", New: &a}).ConfigOnly() {
		t.Fatal("added is not config-only")
	}
}

func TestHostChanged(t *testing.T) {
	a := &File{Host: map[string]any{"workers": int64(4)}}
	b := &File{Host: map[string]any{"workers": 4.0}}
	c := &File{Host: map[string]any{"workers": int64(5)}}
	if HostChanged(a, b) || !HostChanged(a, c) || HostChanged(nil, &File{}) || !HostChanged(nil, a) {
		t.Fatal("HostChanged wrong")
	}
}
