package cli

import (
	"testing"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
)

// A login link lands on the page of the first module whose plugin has an
// entry that is not disabled; otherwise on the home page.
func TestLandingPage(t *testing.T) {
	plugin := func(name string) app.Plugin { return app.Plugin{Name: name} }
	mods := []Module{{Plugin: plugin("status")}, {Plugin: plugin("notes"), Landing: "/notes/"}, {Plugin: plugin("wiki"), Landing: "/wiki/"}}
	for _, tc := range []struct {
		name    string
		entries []dsh.PluginInfo
		want    string
	}{
		{"no entries", nil, "/"},
		{"a module without a page", []dsh.PluginInfo{{Plugin: "status"}}, "/"},
		{"the first module wins", []dsh.PluginInfo{{Plugin: "wiki"}, {Plugin: "notes"}}, "/notes/"},
		{"a disabled entry does not count", []dsh.PluginInfo{{Plugin: "notes", Disabled: true}, {Plugin: "wiki"}}, "/wiki/"},
	} {
		if got := landingPage(mods, tc.entries); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Root adds each module's commands, and the modules' plugins are the
// catalog its config files may name.
func TestRootLinksModules(t *testing.T) {
	root := Root(Module{Plugin: app.Plugin{Name: "notes"}})
	if got := catalog(root); len(got) != 1 || got[0].Name != "notes" {
		t.Fatalf("catalog %v", got)
	}
	sub, _, err := root.Find([]string{"token", "create"})
	if err != nil || sub.Flags().Lookup("board") != nil {
		t.Fatalf("a module without a grant added token flags: %v", err)
	}
}
