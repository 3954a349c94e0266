package excalidrawcmd

import (
	"fmt"
	"net/http"

	"github.com/dshgo/dsh/plugins/excalidraw/httpapi"
	"github.com/spf13/cobra"
)

// createdBoard is POST {httpapi.Prefix}/api/boards's answer.
type createdBoard struct {
	Board struct {
		Name     string `json:"name"`
		Title    string `json:"title"`
		Revision int64  `json:"revision"`
	} `json:"board"`
}

// newBoardCreate is `dsh board create NAME`: an empty board, owned by the
// host's owner, made through the running host (so it is live in open
// editors at once, and a connect token can then be bound to it).
func newBoardCreate() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "create NAME",
		Short: "Create an empty board, owned by the host's owner",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			title, _ := cmd.Flags().GetString("title")
			description, _ := cmd.Flags().GetString("description")
			var out createdBoard
			if err := send(cmd, http.MethodPost, httpapi.Prefix+"/api/boards",
				map[string]string{"name": args[0], "title": title, "description": description}, &out); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "created board %s (revision %d)\n", out.Board.Name, out.Board.Revision)
			return nil
		},
	}
	cmd.Flags().String("title", "", "the board's title (the name by default)")
	cmd.Flags().String("description", "", "what the board is for")
	return cmd
}
