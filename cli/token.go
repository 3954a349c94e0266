package cli

import (
	"fmt"
	"net/http"
	"net/url"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/plugins/admin"
	"github.com/dshgo/dsh/plugins/names"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

func newToken(mods []Module) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Create, list or revoke bearer tokens for programs and agents",
		Long: "Bearer tokens let programs and agents call the host (its API, and MCP at /mcp). They are kept\n" +
			"hashed in tokens.json in the data directory (or in the database, with a postgres store); a token\n" +
			"is shown once, when it is made.",
		Example: tokenExamples(mods),
	}
	store := func(cmd *cobra.Command) (*connection.TokenStore, error) {
		st, err := openState(cmd)
		if err != nil {
			return nil, err
		}
		return st.Tokens(), nil // the pool, if any, ends with the command's process
	}
	create := &cobra.Command{
		Use:     "create NAME",
		Short:   "Create a bearer token, shown once: a host token, or a plugin's connect token",
		Long:    tokenCreateHelp(mods),
		Example: tokenCreateExamples(mods),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := names.Check("token name", args[0]); err != nil {
				return err // before anything is opened
			}
			for _, m := range mods {
				if g := m.Grant; g != nil && g.Wanted(cmd) {
					return g.Create(cmd, args[0])
				}
			}
			s, err := store(cmd)
			if err != nil {
				return err
			}
			plain, rec, err := s.Create(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "created token %s (%s); it is shown once, keep it safe:\n", rec.ID, rec.Name)
			fmt.Fprintln(cmd.OutOrStdout(), plain)
			return nil
		},
	}
	for _, m := range mods {
		if m.Grant != nil {
			m.Grant.Flags(create.Flags())
		}
	}
	AddHostFlags(create)
	cmd.AddCommand(create)
	cmd.AddCommand(&cobra.Command{
		Use: "ls", Short: "List tokens (never their values)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := openState(cmd)
			if err != nil {
				return err
			}
			defer st.Close()
			recs, err := st.Tokens().List(cmd.Context())
			if err != nil {
				return err
			}
			warnNoFile(cmd, st, dsh.TokenFile(st.c.Host.DataDir), "token file")
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tKIND\tROLE\tBOARDS\tCREATED")
			for _, r := range recs {
				kind, role, boards := "host", "-", "all"
				if g := r.Grant; g != nil {
					kind, role, boards = "connect", "?", "?"
					for _, m := range mods {
						if m.Grant == nil {
							continue
						}
						if r, b, ok := m.Grant.Describe(g); ok {
							role, boards = names.Display(r), b
							break
						}
					}
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
		Short: "Revoke a token; a running host stops accepting it at once",
		Long: "With a host running this goes through its admin API, which also ends the token's open requests\n" +
			"and MCP sessions at once; with none, it edits the token file.\n\n" + HostHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return WithHostOrFile(cmd, "token file",
				func(t Target) error {
					if err := t.call(cmd.Context(), http.MethodDelete, "/tokens/"+url.PathEscape(args[0]), nil, &admin.RevokedTokenResponse{}); err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "revoked %s\n", args[0])
					return nil
				},
				func(c *dsh.LoadedConfig) error {
					st, err := OpenState(cmd.Context(), c)
					if err != nil {
						return err
					}
					defer st.Close()
					if _, err := st.Tokens().Revoke(cmd.Context(), args[0]); err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "revoked %s\n", args[0])
					return nil
				})
		},
	}
	AddHostFlags(revoke)
	cmd.AddCommand(revoke)
	return cmd
}

// tokenCreateExamples are `dsh token create`'s examples: a host token,
// then each module's kind of connect token.
func tokenCreateExamples(mods []Module) string {
	ex := "  dsh token create my-script --config config.example.yaml"
	for _, m := range mods {
		if m.Grant != nil && m.Grant.Example != "" {
			ex += "\n" + m.Grant.Example
		}
	}
	return ex
}

// tokenExamples are `dsh token`'s: making tokens, listing and revoking
// them.
func tokenExamples(mods []Module) string {
	return tokenCreateExamples(mods) + "\n  dsh token ls --config config.example.yaml\n" +
		"  dsh token revoke my-script --config config.example.yaml"
}

// tokenCreateHelp is `dsh token create`'s long help: each module's
// connect tokens, and the host token made without their flags.
func tokenCreateHelp(mods []Module) string {
	h := ""
	for _, m := range mods {
		if m.Grant != nil && m.Grant.Help != "" {
			h += m.Grant.Help + "\n"
		}
	}
	if h == "" {
		return "A host token, with every right (for programs and scripts you run).\n\n" + HostHelp
	}
	return h + "\nWithout those flags: a host token, with every right (for programs and scripts you run).\n\n" + HostHelp
}
