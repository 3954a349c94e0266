package excalidrawcmd

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/plugins/excalidraw/httpapi"
	"github.com/dshgo/dsh/plugins/identity"
)

// roomAnswer is GET {httpapi.Prefix}/api/scenes/NAME/room.
type roomAnswer struct {
	RoomID string `json:"roomId"`
	Key    string `json:"roomKey"`
	Path   string `json:"path"`
}

// newBoardRoom is `dsh board room BOARD`: a room link a stock Excalidraw
// client joins the board's live room with. Such a client can send no
// credential of its own, so the link carries a new connect token for the
// board (its role by --role), which `dsh token revoke` ends.
func newBoardRoom() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "room BOARD",
		Short: "Print a room link for a stock Excalidraw client to join a board live",
		Long: "Prints the fragment of a collaboration link (#room=<id>_<token>,<key>) for an Excalidraw app\n" +
			"whose room server (VITE_APP_WS_SERVER_URL) is this host: open <that app's URL>/<fragment>.\n" +
			"The link carries a new connect token for the board (--role editor or viewer); whoever holds it\n" +
			"joins as that token until `dsh token revoke` ends it. People signed in to dsh need no link: the\n" +
			"board's page is in the room already.",
		Example: "  dsh board room plan --role viewer --config config.example.yaml",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			board := args[0]
			role, _ := cmd.Flags().GetString("role")
			if role != identity.RoleEditor && role != identity.RoleViewer {
				return fmt.Errorf("--role must be editor or viewer, not %q", role)
			}
			var room roomAnswer
			if err := send(cmd, http.MethodGet, httpapi.Prefix+"/api/scenes/"+url.PathEscape(board)+"/room", nil, &room); err != nil {
				if he := (*cli.HostError)(nil); errors.As(err, &he) && he.Code == "not_found" {
					return fmt.Errorf("%w\n  a room is a board's; make the board first: dsh board create %s", err, board)
				}
				return err
			}
			name := "room " + board + " " + time.Now().UTC().Format("2006-01-02 15:04:05")
			var tok connectToken
			if err := send(cmd, http.MethodPost, httpapi.Prefix+"/api/mcp/tokens",
				map[string]any{"name": name, "boards": []string{board}, "role": role}, &tok); err != nil {
				return err
			}
			t, err := cli.Host(cmd)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "#room=%s_%s,%s\n\n", room.RoomID, tok.Token, room.Key)
			fmt.Fprintf(out, "Open it in an Excalidraw app built with VITE_APP_WS_SERVER_URL=%s (socket.io at %s).\n",
				strings.TrimRight(t.URL, "/"), room.Path)
			fmt.Fprintf(out, "It joins as the connect token %q (%s on %s); end it with: dsh token revoke %s\n", tok.Name, role, board, tok.ID)
			return nil
		},
	}
	cmd.Flags().String("role", identity.RoleEditor, "editor or viewer")
	return cmd
}
