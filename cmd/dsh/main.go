// Command dsh runs the dsh plugin host and talks to a running one. It
// only links plugins in: the command line is package cli, and each
// plugin's module brings its own commands.
//
//	dsh serve --config dsh.yaml     run the host; prints its URL, a login link and its data directory
//	dsh mcp --config dsh.yaml       serve the agent tools over MCP on stdio
//	dsh plugins ls|load|unload|reload [ID]
//	dsh login                       print a new one-time login link for the running host
//	dsh sessions ls | revoke ID|--all
//	dsh token create NAME | ls | revoke ID|NAME
//	dsh user add|ls|reinvite|rm [NAME]
//	dsh store migrate --from fs|postgres --to postgres|fs
//	dsh backup FILE                 a consistent snapshot of the data directory into one archive
//	dsh restore FILE --data DIR     fill an empty data directory from such an archive
//	dsh board create|share|members|room …   (the excalidraw plugin's)
//	dsh version
//
// `dsh help` and `dsh COMMAND --help` say more; --verbose prints an
// error in full.
package main

import (
	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/plugins/excalidraw/excalidrawcmd"
	"github.com/dshgo/dsh/plugins/status"
)

// modules are the plugins this binary links in, one line each.
func modules() []cli.Module {
	return append([]cli.Module{
		{Plugin: status.Plugin},
		excalidrawcmd.Module,
	}, extraModules...)
}

// extraModules are added by build-tagged files (see catalog_conformance.go).
var extraModules []cli.Module

func newRoot() *cobra.Command { return cli.Root(modules()...) }

func main() { cli.Main(newRoot()) }
