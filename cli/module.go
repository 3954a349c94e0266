package cli

import (
	"context"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/identity"
)

// Module is what one plugin links into the command line: the plugin (so
// config files may name it) and what it adds to the commands. The host's
// commands never name a plugin; they ask the modules.
type Module struct {
	// Plugin is the plugin config entries name.
	Plugin app.Plugin
	// Commands are top-level commands the module adds (e.g. `dsh board`).
	Commands []func() *cobra.Command
	// Landing is the page a login link opens when a config entry of
	// Plugin is not disabled ("": the module has none). The first module
	// with one wins; with none, the home page.
	Landing string
	// Data says, for `dsh serve --help`, where the module's plugin keeps
	// what it keeps and which setting moves it (lines of at most 100
	// characters, without a final newline).
	Data string
	// Grant, when set, lets `dsh token create` mint connect tokens bounded
	// by this module's grant, and `dsh token ls` describe them.
	Grant *TokenGrant
	// Migrate, when set, copies the module's own data (beyond the host's
	// documents) in `dsh store migrate`.
	Migrate func(ctx context.Context, m *Migration) ([]MigrateLine, error)
	// Backup, when set, adds the module's own data (beyond the host's
	// documents) to `dsh backup`'s archive while a host may be writing:
	// it takes its share of the backup's one moment (its locks held
	// through Hold, what it keeps under them opened, copied in a Then;
	// see Backup).
	Backup func(ctx context.Context, b *Backup) error
}

// TokenGrant is a module's kind of connect token: an agent bounded by a
// grant only the module reads (identity.Grant is opaque to the host).
type TokenGrant struct {
	// Help says, for `dsh token create --help`, which flags make such a
	// token and what it may do.
	Help string
	// Example is `dsh token create`'s examples of such tokens, each line
	// indented by two spaces.
	Example string
	// Flags adds the grant's flags to `dsh token create`.
	Flags func(fs *pflag.FlagSet)
	// Wanted reports whether the command line asks for this grant (one
	// of its flags given).
	Wanted func(cmd *cobra.Command) bool
	// Create mints the token named name and prints it.
	Create func(cmd *cobra.Command, name string) error
	// Describe is the ROLE and REACH columns `dsh token ls` shows of a
	// connect token's grant; ok false when the grant is not this
	// module's.
	Describe func(g *identity.Grant) (role, reach string, ok bool)
}

// roots keeps each root command's modules, for the commands under it.
var roots sync.Map // *cobra.Command → []Module

// modulesOf is the modules of the command line cmd belongs to.
func modulesOf(cmd *cobra.Command) []Module {
	m, _ := roots.Load(cmd.Root())
	mods, _ := m.([]Module)
	return mods
}

// catalog is every plugin the command line's config files may load.
func catalog(cmd *cobra.Command) []app.Plugin {
	var out []app.Plugin
	for _, m := range modulesOf(cmd) {
		out = append(out, m.Plugin)
	}
	return out
}

// landingPage is where a login link sends the browser: the landing page
// of the first module whose plugin has an entry that is not disabled,
// else the home page. `dsh serve`'s link and `dsh login`'s share it.
func landingPage(mods []Module, entries []dsh.PluginInfo) string {
	for _, m := range mods {
		if m.Landing == "" {
			continue
		}
		for _, e := range entries {
			if e.Plugin == m.Plugin.Name && !e.Disabled {
				return m.Landing
			}
		}
	}
	return "/"
}
