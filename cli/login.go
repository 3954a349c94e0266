package cli

import (
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/plugins/admin"
)

func newLogin() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Print a new one-time login link for the running host",
		Long: "Asks the running host for a new one-time login link and prints it on stdout (one line,\n" +
			"nothing else, so scripts can use it); open it in a browser to start a session. The link works\n" +
			"once, for a few minutes. It opens the page of the first linked plugin that has one and an entry in\n" +
			"the config, else the home page; --next picks another page.\n\n" + HostHelp,
		Example: "  dsh login --config config.example.yaml\n" +
			"  dsh login --next / --config config.example.yaml   # the home page",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			t, err := Host(cmd)
			if err != nil {
				return err
			}
			next, _ := cmd.Flags().GetString("next")
			if !cmd.Flags().Changed("next") {
				// The host's own entries decide, as for the link `dsh
				// serve` prints: this works for --url hosts too.
				var out struct {
					Plugins []dsh.PluginInfo `json:"plugins"`
				}
				if err := t.call(cmd.Context(), http.MethodGet, "/plugins", nil, &out); err != nil {
					return err
				}
				next = landingPage(modulesOf(cmd), out.Plugins)
			}
			var link admin.LoginLinkResponse
			if err := t.call(cmd.Context(), http.MethodPost, "/login-links", admin.LoginLinkRequest{Next: next}, &link); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "open this link in your browser to log in (works once, until %s):\n", link.ExpiresAt.Local().Format("15:04:05"))
			fmt.Fprintln(cmd.OutOrStdout(), link.URL)
			return nil
		},
	}
	AddHostFlags(cmd)
	cmd.Flags().String("next", "", "page the link opens after logging in (default: a linked plugin's page, such as the editor, else /)")
	return cmd
}
