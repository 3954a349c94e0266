package main

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/kernel"
	"github.com/dshgo/dsh/plugins/identity"
	"github.com/dshgo/dsh/plugins/names"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

func newToken() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Manage bearer tokens for programs and agents (stored hashed in the data directory)",
	}
	store := func(cmd *cobra.Command) (*connection.TokenStore, error) {
		st, err := openState(cmd)
		if err != nil {
			return nil, err
		}
		return st.tokens(), nil // the pool, if any, ends with the command's process
	}
	create := &cobra.Command{
		Use:   "create NAME",
		Short: "Create a token; it is shown once (with --board, a connect token for an agent)",
		Long: "Without --board: a host token, with every right (for programs and scripts you run).\n" +
			"With --board: a connect token, an agent that draws as the host's owner on those boards only,\n" +
			"as an editor or a viewer. With a host running it is minted through its API (the boards are\n" +
			"checked); with none, in the token file.\n\n" + hostHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := names.Check("token name", args[0]); err != nil {
				return err // before anything is opened
			}
			boards, _ := cmd.Flags().GetStringArray("board")
			if len(boards) == 0 {
				s, err := store(cmd)
				if err != nil {
					return err
				}
				plain, rec, err := s.Create(args[0])
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "created token %s (%s); it is shown once, keep it safe:\n", rec.ID, rec.Name)
				fmt.Fprintln(cmd.OutOrStdout(), plain)
				return nil
			}
			return createConnectToken(cmd, args[0], boards)
		},
	}
	create.Flags().StringArray("board", nil, "a board the agent reaches (repeat for several)")
	create.Flags().String("role", "editor", "editor or viewer")
	create.Flags().Bool("can-create-boards", false, "the agent may create boards (each bound to it)")
	create.Flags().Bool("can-create-folders", false, "the agent may use folders (with --can-create-boards)")
	create.Flags().Int("expires-in-days", 0, "the token stops working after this many days (0: never)")
	addHostFlags(create)
	cmd.AddCommand(create)
	cmd.AddCommand(&cobra.Command{
		Use: "ls", Short: "List tokens (never their values)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := store(cmd)
			if err != nil {
				return err
			}
			recs, err := s.List()
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tKIND\tROLE\tBOARDS\tCREATED")
			for _, r := range recs {
				kind, role, boards := "host", "-", "all"
				if g := r.Grant; g != nil {
					kind, role, boards = "connect", names.Display(g.Role), displayAll(append(slices.Clone(g.Boards), g.Created...))
					if r.Client != "" {
						kind = "oauth"
					}
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", names.Display(r.ID), names.Display(r.Name), kind, role, boards, r.CreatedAt.Format("2006-01-02 15:04"))
			}
			return tw.Flush()
		},
	})
	revoke := &cobra.Command{
		Use:   "revoke ID|NAME",
		Short: "Revoke a token (a running host stops accepting it, and closes its open requests and MCP sessions, at once)",
		Long: "With a host running this goes through its admin API, which also ends the token's open requests\n" +
			"and MCP sessions at once; with none, it edits the token file.\n\n" + hostHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withHostOrFile(cmd, "token file",
				func(t hostTarget) error {
					if err := t.call(cmd.Context(), http.MethodDelete, "/tokens/"+url.PathEscape(args[0]), nil, &kernel.RevokedTokenResponse{}); err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "revoked %s\n", args[0])
					return nil
				},
				func(c *dsh.LoadedConfig) error {
					st, err := openStateOf(cmd.Context(), c)
					if err != nil {
						return err
					}
					defer st.close()
					if _, err := st.tokens().Revoke(args[0]); err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "revoked %s\n", args[0])
					return nil
				})
		},
	}
	addHostFlags(revoke)
	cmd.AddCommand(revoke)
	return cmd
}

// connectToken is the answer of POST /dsh-excalidraw/api/mcp/tokens.
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
	err := withHostOrFile(cmd, "token file",
		func(t hostTarget) error {
			err := t.send(cmd.Context(), http.MethodPost, "/dsh-excalidraw/api/mcp/tokens", map[string]any{
				"name": name, "boards": boards, "role": role, "canCreateBoards": canBoards, "canCreateFolders": canFolders, "expiresInDays": days,
			}, &out)
			if he := (*hostError)(nil); errors.As(err, &he) && he.Code == "not_found" {
				return fmt.Errorf("%w\n  a connect token reaches boards that exist; make one first: dsh board create NAME (or in the editor)", err)
			}
			return err
		},
		func(c *dsh.LoadedConfig) error {
			st, err := openStateOf(cmd.Context(), c)
			if err != nil {
				return err
			}
			defer st.close()
			owner, ok, err := st.people().Owner()
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("this data directory has no owner yet: start `dsh serve` once (it creates one), then try again")
			}
			spec := connection.TokenSpec{Name: name, Person: owner.ID, Grant: &identity.Grant{
				Role: role, Boards: boards, CanCreateBoards: canBoards, CanCreateFolders: canFolders}}
			if days > 0 {
				at := time.Now().UTC().Add(time.Duration(days) * 24 * time.Hour).Truncate(time.Second)
				spec.ExpiresAt = &at
			}
			plain, rec, err := st.tokens().Mint(spec)
			if err != nil {
				return err
			}
			base, err := inviteBase(cmd, c)
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
