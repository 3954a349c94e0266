// Package cli is dsh's command line as a library: the host's own commands
// (serve, mcp, plugins, login, sessions, token, user, store, backup,
// restore, version) and
// those the linked plugins' modules add, the way Caddy modules register
// theirs. A binary lists its modules and calls Main:
//
//	func main() { cli.Main(cli.Root(cli.Module{Plugin: status.Plugin}, mymodule.Module)) }
//
// The host's commands never name a plugin: a module brings its commands
// (Module.Commands), its kind of connect token (Module.Grant), its part of
// `dsh store migrate` (Module.Migrate) and of `dsh backup`
// (Module.Backup) and the page a login link opens
// (Module.Landing). Commands that talk to a running host find it through
// the runtime file `dsh serve` leaves in the data directory (RuntimeInfo),
// or --url and --token; plugins' commands do the same with Host.
package cli
