package excalidrawcmd

import (
	"fmt"
	"net/http"
	"net/url"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/plugins/excalidraw/httpapi"
	"github.com/dshgo/dsh/plugins/names"
)

// membersAnswer is GET/PUT {httpapi.Prefix}/api/boards/NAME/members.
type membersAnswer struct {
	Owner   string `json:"owner"`
	Members []struct {
		Name string `json:"name"`
		Role string `json:"role"`
	} `json:"members"`
}

func newBoard() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "board",
		Short: "Create, share and export boards, as the running host's owner",
		Long: "Boards are shared with people as editors (they may change them) or viewers (they may look).\n" +
			"These commands go through the running host, as its owner; its excalidraw plugin must be loaded.\n\n" + cli.HostHelp,
		Example: "  dsh board create plan --title \"The plan\" --config config.example.yaml\n" +
			"  dsh board share plan bob --role viewer --config config.example.yaml\n" +
			"  dsh board members plan --config config.example.yaml\n" +
			"  dsh board export --all --out ./boards --config config.example.yaml",
	}
	cli.AddHostFlags(cmd)
	print := func(cmd *cobra.Command, board string, m membersAnswer) error {
		tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "PERSON\tROLE\n%s\towner\n", names.Display(m.Owner))
		for _, p := range m.Members {
			fmt.Fprintf(tw, "%s\t%s\n", names.Display(p.Name), names.Display(p.Role))
		}
		return tw.Flush()
	}
	share := &cobra.Command{
		Use:   "share BOARD PERSON",
		Short: "Share a board with a person (--role editor or viewer), or stop (--role none)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			role, _ := cmd.Flags().GetString("role")
			switch role {
			case "editor", "viewer":
			case "none":
				role = ""
			default:
				return fmt.Errorf("--role must be editor, viewer or none, not %q", role)
			}
			var out membersAnswer
			path := httpapi.Prefix + "/api/boards/" + url.PathEscape(args[0]) + "/members/" + url.PathEscape(args[1])
			if err := send(cmd, http.MethodPut, path, map[string]string{"role": role}, &out); err != nil {
				return err
			}
			return print(cmd, args[0], out)
		},
	}
	share.Flags().String("role", "editor", "editor, viewer, or none to stop sharing")
	cmd.AddCommand(newBoardCreate(), newBoardRoom(), newBoardExport(), share, &cobra.Command{
		Use:   "members BOARD",
		Short: "List the people a board is shared with, and their roles",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var out membersAnswer
			if err := send(cmd, http.MethodGet, httpapi.Prefix+"/api/boards/"+url.PathEscape(args[0])+"/members", nil, &out); err != nil {
				return err
			}
			return print(cmd, args[0], out)
		},
	})
	return cmd
}
