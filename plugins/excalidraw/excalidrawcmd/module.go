// Package excalidrawcmd links the Excalidraw plugin into dsh's command
// line: the plugin, its commands (`dsh board …`), its connect tokens
// (`dsh token create NAME --board B`), its part of `dsh store migrate`
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
	Grant:    grant,
	Migrate:  migrateStores,
}
