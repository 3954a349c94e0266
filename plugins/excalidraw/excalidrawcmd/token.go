package excalidrawcmd

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/cli"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/httpapi"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/names"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// grant is the plugin's kind of connect token: an agent that draws as
// the host's owner on some boards only (`dsh token create NAME --board B`).
var grant = &cli.TokenGrant{
	Help: "With --board: a connect token, an agent that draws as the host's owner on those boards only,\n" +
		"as an editor or a viewer. With a host running it is minted through its API (the boards are\n" +
		"checked); with none, in the token file.",
	Example: "  dsh token create my-agent --board plan --role viewer --config config.example.yaml",
	Flags: func(fs *pflag.FlagSet) {
		fs.StringArray("board", nil, "a board the agent reaches (repeat for several)")
		fs.String("role", "editor", "editor or viewer")
		fs.Bool("can-create-boards", false, "the agent may create boards (each bound to it)")
		fs.Bool("can-create-folders", false, "the agent may use folders (with --can-create-boards)")
		fs.Int("expires-in-days", 0, "the token stops working after this many days (0: never)")
	},
	Wanted: func(cmd *cobra.Command) bool {
		boards, _ := cmd.Flags().GetStringArray("board")
		return len(boards) > 0
	},
	Create: func(cmd *cobra.Command, name string) error {
		boards, _ := cmd.Flags().GetStringArray("board")
		return createConnectToken(cmd, name, boards)
	},
	Describe: func(g *identity.Grant) (string, string, bool) {
		bg := access.GrantOf(g)
		if bg.Role == "" {
			return "", "", false
		}
		return bg.Role, displayAll(append(slices.Clone(bg.Boards), bg.Created...)), true
	},
}

// connectToken is the answer of POST {httpapi.Prefix}/api/mcp/tokens.
type connectToken struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Role          string   `json:"role"`
	Boards        []string `json:"boards"`
	Token         string   `json:"token"`
	MCPURL        string   `json:"mcpUrl"`
	ConfigSnippet string   `json:"configSnippet"`
	Note          string   `json:"note"`
}

// createConnectToken mints a connect token for the host's owner: through
// the running host (which checks the boards), else in the token file.
func createConnectToken(cmd *cobra.Command, name string, boards []string) error {
	role, _ := cmd.Flags().GetString("role")
	if role != identity.RoleEditor && role != identity.RoleViewer {
		return fmt.Errorf("--role must be editor or viewer, not %q", role)
	}
	canBoards, _ := cmd.Flags().GetBool("can-create-boards")
	canFolders, _ := cmd.Flags().GetBool("can-create-folders")
	days, _ := cmd.Flags().GetInt("expires-in-days")
	if days < 0 {
		return fmt.Errorf("--expires-in-days must not be negative")
	}
	var out connectToken
	err := cli.WithHostOrFile(cmd, "token file",
		func(t cli.Target) error {
			err := t.PluginSend(cmd, excalidraw.Plugin.Name, http.MethodPost, httpapi.Prefix+"/api/mcp/tokens", map[string]any{
				"name": name, "boards": boards, "role": role, "canCreateBoards": canBoards, "canCreateFolders": canFolders, "expiresInDays": days,
			}, &out)
			if he := (*cli.HostError)(nil); errors.As(err, &he) && he.Code == "not_found" {
				return fmt.Errorf("%w\n  a connect token reaches boards that exist; make one first: dsh board create NAME (or in the editor)", err)
			}
			return err
		},
		func(c *dsh.LoadedConfig) error {
			st, err := cli.OpenState(cmd.Context(), c)
			if err != nil {
				return err
			}
			defer st.Close()
			owner, ok, err := st.People().Owner(cmd.Context())
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("this data directory has no owner yet: start `dsh serve` once (it creates one), then try again")
			}
			spec := connection.TokenSpec{Name: name, Person: owner.ID, Grant: access.NewGrant(access.Grant{
				Role: role, Boards: boards, CanCreateBoards: canBoards, CanCreateFolders: canFolders})}
			if days > 0 {
				at := time.Now().UTC().Add(time.Duration(days) * 24 * time.Hour).Truncate(time.Second)
				spec.ExpiresAt = &at
			}
			plain, rec, err := st.Tokens().Mint(cmd.Context(), spec)
			if err != nil {
				return err
			}
			base, err := cli.InviteBase(cmd, c)
			if err != nil {
				base = "http://" + c.Host.Listen
			}
			out = connectToken{ID: rec.ID, Name: rec.Name, Role: role, Boards: boards, Token: plain, MCPURL: base + "/mcp"}
			fmt.Fprintln(cmd.ErrOrStderr(), "no host runs, so the boards were not checked")
			return nil
		})
	if err != nil {
		return err
	}
	if out.Note != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), out.Note)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "created connect token %s (%s): %s on %s, for %s; it is shown once, keep it safe:\n",
		out.ID, out.Name, out.Role, strings.Join(out.Boards, ", "), out.MCPURL)
	fmt.Fprintln(cmd.OutOrStdout(), out.Token)
	return nil
}

// displayAll is names joined with commas, each as names.Display shows
// it.
func displayAll(list []string) string {
	out := make([]string, len(list))
	for i, n := range list {
		out[i] = names.Display(n)
	}
	return strings.Join(out, ",")
}
