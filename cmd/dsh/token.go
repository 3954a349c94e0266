package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

func newToken() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Manage bearer tokens for programs and agents (stored hashed in the data directory)",
	}
	store := func(cmd *cobra.Command) (*connection.TokenStore, error) {
		c, err := loadConfig(cmd)
		if err != nil {
			return nil, err
		}
		return connection.OpenTokenStore(dsh.TokenFile(c.Host.DataDir)), nil
	}
	cmd.AddCommand(&cobra.Command{
		Use: "create NAME", Short: "Create a token; it is shown once", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
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
		},
	}, &cobra.Command{
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
			fmt.Fprintln(tw, "ID\tNAME\tCREATED")
			for _, r := range recs {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Name, r.CreatedAt.Format("2006-01-02 15:04"))
			}
			return tw.Flush()
		},
	}, &cobra.Command{
		Use: "revoke ID|NAME", Short: "Revoke a token (a running host stops accepting it at once)", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := store(cmd)
			if err != nil {
				return err
			}
			if err := s.Revoke(args[0]); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "revoked %s\n", args[0])
			return nil
		},
	})
	return cmd
}
