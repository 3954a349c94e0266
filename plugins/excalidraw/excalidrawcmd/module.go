// Package excalidrawcmd links the Excalidraw plugin into dsh's command
// line: the plugin, its commands (`dsh board …`), its connect tokens
// (`dsh token create NAME --board B`), its part of `dsh store migrate` and `dsh backup`
// and the editor as the page a login link opens.
package excalidrawcmd

import (
	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/httpapi"
)

// Module is the Excalidraw plugin as a command line links it in.
var Module = cli.Module{
	Plugin:   excalidraw.Plugin,
	Commands: []func() *cobra.Command{newBoard},
	Landing:  httpapi.Prefix + "/",
	Data: "The excalidraw plugin keeps boards in excalidraw/drawings under the data directory (its\n" +
		"drawingsDir setting), their images in excalidraw/files (files.dir) and exports in exports\n" +
		"(exports.dir); relative paths in these settings are relative to the data directory.",
	Grant:   grant,
	Migrate: migrateStores,
	Backup:  backupStores,
}

// send is cli.PluginSend for the plugin's API: a host where the plugin
// is not loaded says so, and how to load it.
func send(cmd *cobra.Command, method, path string, in, out any) error {
	return cli.PluginSend(cmd, excalidraw.Plugin.Name, method, path, in, out)
}
