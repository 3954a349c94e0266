package cli

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/plugins/admin"
	"github.com/dshgo/dsh/plugins/names"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

func newSessions() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List or revoke browser sessions (the ones login links start)",
		Long: "Browser sessions are kept, hashed, in sessions.json in the data directory, so they survive a\n" +
			"restart of `dsh serve`. With a host running these commands go through its admin API (a revoked\n" +
			"session is refused at once); with none, they edit the file.\n\n" + HostHelp,
		Example: "  dsh sessions ls --config config.example.yaml\n" +
			"  dsh sessions revoke --all --config config.example.yaml",
	}
	AddHostFlags(cmd)
	cmd.AddCommand(&cobra.Command{
		Use: "ls", Short: "List live sessions (never their secrets)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var list []connection.SessionInfo
			err := withSessions(cmd,
				func(t Target) error {
					var out admin.SessionsResponse
					err := t.call(cmd.Context(), http.MethodGet, "/sessions", nil, &out)
					list = out.Sessions
					return err
				},
				func(st *State) (err error) {
					if list, err = st.Sessions().List(cmd.Context()); err == nil {
						warnNoFile(cmd, st, connection.SessionFile(st.c.Host.DataDir), "sessions file")
					}
					return err
				})
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tCREATED\tEXPIRES\tBROWSER")
			for _, s := range list {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", names.Display(s.ID), s.CreatedAt.Local().Format("2006-01-02 15:04"), s.ExpiresAt.Local().Format("2006-01-02 15:04"), names.Display(s.Label))
			}
			return tw.Flush()
		},
	})
	revoke := &cobra.Command{
		Use:   "revoke ID|--all",
		Short: "Revoke one session, or all of them; a running host refuses them at once",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			all, _ := cmd.Flags().GetBool("all")
			if all == (len(args) == 1) {
				return errors.New("give a session ID (see `dsh sessions ls`) or --all, not both")
			}
			if all {
				var n int
				err := withSessions(cmd,
					func(t Target) error {
						var out admin.RevokedResponse
						err := t.call(cmd.Context(), http.MethodDelete, "/sessions", nil, &out)
						n = out.Revoked
						return err
					},
					func(st *State) (err error) {
						n, err = st.Sessions().RevokeAll(cmd.Context())
						return err
					})
				if err != nil {
					return err
				}
				plural := "s"
				if n == 1 {
					plural = ""
				}
				fmt.Fprintf(cmd.OutOrStdout(), "revoked %d session%s\n", n, plural)
				return nil
			}
			id := args[0]
			err := withSessions(cmd,
				func(t Target) error {
					return t.call(cmd.Context(), http.MethodDelete, "/sessions/"+url.PathEscape(id), nil, &admin.RevokedResponse{})
				},
				func(st *State) error {
					err := st.Sessions().Revoke(cmd.Context(), id)
					if errors.Is(err, connection.ErrSessionNotFound) {
						// The admin API's code, so both paths read alike.
						return fmt.Errorf("unknown_session: no live session has id %q", id)
					}
					return err
				})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "revoked %s\n", id)
			return nil
		},
	}
	revoke.Flags().Bool("all", false, "revoke every session")
	cmd.AddCommand(revoke)
	return cmd
}

// withSessions runs viaAPI against the running host, or viaFile on the
// sessions file (of the state it is given) when no host runs: no runtime file, or one left by a host
// that died (nothing answers at its URL; the request never reached a
// server, so nothing was done twice). A host given by --url or DSH_URL
// that does not answer is an error, not a reason to guess.
func withSessions(cmd *cobra.Command, viaAPI func(Target) error, viaFile func(*State) error) error {
	t, err := Host(cmd)
	if err == nil {
		err = viaAPI(t)
		if !isUnreachable(err) || !t.FromRuntimeFile {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "no host answers at %s (its runtime file is stale); editing the sessions file directly\n", t.URL)
	} else if !errors.Is(err, ErrNoHost) {
		return err
	}
	st, err := openState(cmd)
	if err != nil {
		return err
	}
	defer st.Close()
	return viaFile(st)
}
