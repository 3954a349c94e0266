package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
)

// Main runs the command line root (os.Args) and exits 1 on an error,
// printed as "dsh: error".
func Main(root *cobra.Command) {
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "dsh:", err)
		os.Exit(1)
	}
}

// Root is dsh's command line with mods linked in: the host's commands and
// each module's. Config files may load the modules' plugins.
func Root(mods ...Module) *cobra.Command {
	root := &cobra.Command{
		Use:           "dsh",
		Short:         "A plugin host for people and agents working on the same drawings",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringP("config", "c", "", "YAML config file (default: built-in defaults)")
	roots.Store(root, mods)
	root.AddCommand(newServe(), newMCP(), newPlugins(), newLogin(), newSessions(), newUser(), newToken(mods), newStore(), newVersion())
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
	opts := []dsh.Option{dsh.WithPlugins(catalog(cmd)...)}
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
