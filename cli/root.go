package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
)

// Main runs the command line root (os.Args) and exits 1 on an error,
// printed as "dsh: error" (Execute).
func Main(root *cobra.Command) { os.Exit(Execute(context.Background(), root)) }

// Root is dsh's command line with mods linked in: the host's commands and
// each module's. Config files may load the modules' plugins.
func Root(mods ...Module) *cobra.Command {
	root := &cobra.Command{
		Use:   "dsh",
		Short: "A plugin host for people and agents working on the same drawings",
		Long: "dsh serve runs the host: a web server for people, an MCP endpoint for agents, and the plugins\n" +
			"its config file lists. The other commands talk to that host (found through its data directory),\n" +
			"or edit the data directory when no host runs.\n\n" +
			"Every command reads the same YAML config file, given with --config; without one dsh uses its\n" +
			"built-in defaults: listen on 127.0.0.1:7420 and keep data in ./data in the current folder.\n" +
			"config.example.yaml lists every setting with its default.",
		Example: "  dsh serve --config config.example.yaml\n" +
			"  dsh login --config config.example.yaml\n" +
			"  dsh token create my-agent --config config.example.yaml",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringP("config", "c", "", "YAML config file (default: built-in defaults, data in ./data)")
	root.PersistentFlags().BoolP("verbose", "v", false, "print an error in full, with what the libraries underneath said")
	roots.Store(root, mods)
	root.AddCommand(newServe(mods), newMCP(), newPlugins(), newLogin(), newSessions(), newUser(), newToken(mods), newStore(), newBackup(), newRestore(), newDebug(), newVersion())
	for _, m := range mods {
		for _, c := range m.Commands {
			root.AddCommand(c())
		}
	}
	return root
}

func configFlag(cmd *cobra.Command) string {
	v, _ := cmd.Flags().GetString("config")
	return v
}

// hostOptions builds New's options from the --config flag.
func hostOptions(cmd *cobra.Command, extra ...dsh.Option) []dsh.Option {
	opts := []dsh.Option{dsh.WithPlugins(catalog(cmd)...), quietFramework(cmd)}
	if path := configFlag(cmd); path != "" {
		opts = append(opts, dsh.WithConfigFile(path))
	}
	return append(opts, extra...)
}

func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		// cobra's cmd.Println writes to stderr; a version goes to stdout,
		// where scripts read it.
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "dsh", dsh.Version)
		},
	}
}

// LoadConfig reads the --config file without starting a host.
func LoadConfig(cmd *cobra.Command) (*dsh.LoadedConfig, error) {
	return dsh.LoadConfig(dsh.ConfigSource{Path: configFlag(cmd)}, catalog(cmd)...)
}
