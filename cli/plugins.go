package cli

import (
	"fmt"
	"net/http"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
)

func newPlugins() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "List, load, unload or reload the plugin entries of a running host",
		Long: "Each entry under plugins: in the config file runs one plugin; its ID is the entry's id (the\n" +
			"plugin's name when it sets none). Loading, unloading and reloading change the running host only:\n" +
			"at the next start the config file decides again.\n\n" + HostHelp,
		Example: "  dsh plugins ls --config config.example.yaml\n" +
			"  dsh plugins unload excalidraw --config config.example.yaml\n" +
			"  dsh plugins load excalidraw --config config.example.yaml",
	}
	AddHostFlags(cmd)
	cmd.AddCommand(&cobra.Command{
		Use: "ls", Short: "List the plugin entries and their state", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var out struct {
				Plugins []dsh.PluginInfo `json:"plugins"`
			}
			if err := adminCall(cmd, http.MethodGet, "/plugins", nil, &out); err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tPLUGIN\tSTATE\tSCOPE\tERROR")
			for _, p := range out.Plugins {
				state := p.State
				if p.Disabled && !p.Loaded {
					state = "disabled"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", p.ID, p.Plugin, state, p.ScopeID, p.Error)
			}
			return tw.Flush()
		},
	})
	for _, action := range []struct{ name, short string }{
		{"load", "Load a plugin entry (a disabled one too)"},
		{"unload", "Unload a plugin entry: its pages, API and agent tools go away"},
		{"reload", "Restart a plugin entry (or load it, if it is unloaded)"},
	} {
		action, short := action.name, action.short
		cmd.AddCommand(&cobra.Command{
			Use: action + " ID", Short: short, Args: cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				var out struct {
					Plugin dsh.PluginInfo `json:"plugin"`
				}
				if err := adminCall(cmd, http.MethodPost, "/plugins/"+args[0]+"/"+action, nil, &out); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %s\n", out.Plugin.ID, out.Plugin.State)
				return nil
			},
		})
	}
	return cmd
}
