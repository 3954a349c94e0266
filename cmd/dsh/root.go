package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/status"
)

// catalog is every plugin this binary can load from a config file.
func catalog() []app.Plugin {
	return append([]app.Plugin{status.Plugin, excalidraw.Plugin}, extraPlugins...)
}

// extraPlugins are added by build-tagged files (see catalog_conformance.go).
var extraPlugins []app.Plugin

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "dsh",
		Short:         "A plugin host for people and agents working on the same drawings",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringP("config", "c", "", "YAML config file (default: built-in defaults)")
	root.AddCommand(newServe(), newMCP(), newPlugins(), newLogin(), newSessions(), newUser(), newToken(), newBoard(), newStore(), newVersion())
	return root
}

func configFlag(cmd *cobra.Command) string {
	v, _ := cmd.Flags().GetString("config")
	return v
}

// hostOptions builds New's options from the --config flag.
func hostOptions(cmd *cobra.Command, extra ...dsh.Option) []dsh.Option {
	opts := []dsh.Option{dsh.WithPlugins(catalog()...)}
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

// loadConfig reads the --config file without starting a host.
func loadConfig(cmd *cobra.Command) (*dsh.LoadedConfig, error) {
	return dsh.LoadConfig(dsh.ConfigSource{Path: configFlag(cmd)}, catalog()...)
}
