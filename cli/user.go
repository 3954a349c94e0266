package cli

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/plugins/admin"
	"github.com/dshgo/dsh/plugins/names"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

func newUser() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "user",
		Short: "Add, list, remove or re-invite the people who can sign in",
		Long: "People are kept in accounts.json in the data directory (passwords hashed with argon2id). The\n" +
			"host's owner signs in with the login links `dsh login` prints; everyone else joins through a\n" +
			"one-time invite link, which `dsh user add` and `dsh user reinvite` print, and then signs in with\n" +
			"their name and password at /login.\n\n" +
			"add, ls and reinvite edit the accounts file of --config's data directory (safe while a host\n" +
			"runs). rm goes through the running host's admin API, so the person's sessions and agents' tokens\n" +
			"stop at once; with no host running it edits the file.\n\n" +
			"Invite links are made with, in this order: --url (or DSH_URL), host.publicURL, the running\n" +
			"host's URL, host.listen.\n\n" + HostHelp,
		Example: "  dsh user add bob --email bob@example.com --config config.example.yaml\n" +
			"  dsh user ls --config config.example.yaml\n" +
			"  dsh user reinvite bob --config config.example.yaml   # a forgotten password\n" +
			"  dsh user rm bob --config config.example.yaml",
	}
	AddHostFlags(cmd)

	add := &cobra.Command{
		Use: "add NAME", Short: "Add a person and print their one-time invite link", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			email, _ := cmd.Flags().GetString("email")
			ttl, _ := cmd.Flags().GetDuration("ttl")
			// The name first: a refused one opens and changes nothing
			// (not even the owner's record, made below).
			if err := accounts.ValidName(args[0]); err != nil {
				return userError(err)
			}
			c, st, err := accountsOf(cmd)
			if err != nil {
				return err
			}
			// The owner first, as the host would make them: otherwise a
			// person added under the owner's name would keep the host
			// from starting.
			if _, _, err := st.EnsureOwner(cmd.Context(), dsh.OwnerName(c.Host.Owner)); err != nil {
				return userError(err)
			}
			base, err := InviteBase(cmd, c)
			if err != nil {
				return err
			}
			p, secret, err := st.Add(cmd.Context(), args[0], email, ttl)
			if err != nil {
				return userError(err)
			}
			printInvite(cmd, base, p, secret, "added "+p.Name+" ("+p.ID+")")
			return nil
		},
	}
	add.Flags().String("email", "", "the person's email address (shown in listings)")
	add.Flags().Duration("ttl", accounts.DefaultInviteTTL, "how long the invite link works")

	reinvite := &cobra.Command{
		Use:   "reinvite NAME",
		Short: "Print a new invite link for a person (the previous link stops working)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ttl, _ := cmd.Flags().GetDuration("ttl")
			c, st, err := accountsOf(cmd)
			if err != nil {
				return err
			}
			base, err := InviteBase(cmd, c)
			if err != nil {
				return err
			}
			p, secret, err := st.Reinvite(cmd.Context(), args[0], ttl)
			if err != nil {
				return userError(err)
			}
			printInvite(cmd, base, p, secret, "new invite for "+p.Name)
			return nil
		},
	}
	reinvite.Flags().Duration("ttl", accounts.DefaultInviteTTL, "how long the invite link works")

	ls := &cobra.Command{
		Use: "ls", Short: "List the people who can sign in (never their passwords or invites)", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := openState(cmd)
			if err != nil {
				return err
			}
			defer st.Close()
			people, err := st.People().List(cmd.Context())
			if err != nil {
				return err
			}
			warnNoFile(cmd, st, accounts.File(st.c.Host.DataDir), "accounts file")
			now := time.Now()
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tEMAIL\tOWNER\tSTATUS")
			for _, p := range people {
				owner := "-"
				if p.Owner {
					owner = "yes"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", names.Display(p.ID), names.Display(p.Name), names.Display(orDash(p.Email)), owner, personStatus(p, now))
			}
			return tw.Flush()
		},
	}

	rm := &cobra.Command{
		Use: "rm NAME", Short: "Remove a person: their sessions and agents' tokens stop working", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var gone admin.PersonInfo
			err := WithHostOrFile(cmd, "accounts file",
				func(t Target) error {
					var out admin.RemovedPersonResponse
					err := t.call(cmd.Context(), http.MethodDelete, "/people/"+url.PathEscape(args[0]), nil, &out)
					gone = out.Removed
					return err
				},
				func(c *dsh.LoadedConfig) error {
					st, err := OpenState(cmd.Context(), c)
					if err != nil {
						return err
					}
					defer st.Close()
					p, err := st.People().Remove(cmd.Context(), args[0])
					gone = admin.PersonInfo{ID: p.ID, Name: p.Name}
					return userError(err)
				})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "removed %s (%s)\n", gone.Name, gone.ID)
			return nil
		},
	}

	cmd.AddCommand(add, ls, rm, reinvite)
	return cmd
}

// accountsOf opens the people of --config's store (the data directory's
// accounts file, or the shared database; its pool ends with the
// command's process).
func accountsOf(cmd *cobra.Command) (*dsh.LoadedConfig, *accounts.Store, error) {
	st, err := openState(cmd)
	if err != nil {
		return nil, nil, err
	}
	return st.c, st.People(), nil
}

// printInvite prints the invite link on stdout (one line, for scripts)
// and what it is on stderr.
func printInvite(cmd *cobra.Command, base string, p accounts.Person, secret, what string) {
	link := connection.InviteURL(base, connection.DefaultLoginPath, secret)
	expires := "?"
	if p.Invite != nil {
		expires = p.Invite.ExpiresAt.Local().Format("2006-01-02 15:04")
	}
	errOut := cmd.ErrOrStderr()
	fmt.Fprintf(errOut, "%s; send them this link to choose a password (works once, until %s):\n", what, expires)
	if loopback(base) {
		fmt.Fprintln(errOut, "  (it points at a loopback address: for people on other machines, set host.publicURL or pass --url)")
	}
	fmt.Fprintln(cmd.OutOrStdout(), link)
}

// personStatus is the STATUS column of `dsh user ls`.
func personStatus(p accounts.Person, now time.Time) string {
	invite := ""
	if p.Invite != nil {
		if now.Before(p.Invite.ExpiresAt) {
			invite = "invited (expires " + p.Invite.ExpiresAt.Local().Format("2006-01-02 15:04") + ")"
		} else {
			invite = "invite expired"
		}
	}
	switch {
	case p.Owner || p.PasswordHash != "":
		if invite != "" {
			// A reinvite (a password reset) is outstanding.
			return "active, re" + invite
		}
		return "active"
	case invite != "":
		return invite
	}
	return "no password"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// inviteBase is the URL invite links start with: --url or DSH_URL, else
// the configured public URL, else the URL of the host running with
// --config (its runtime file), else the configured listen address.
func InviteBase(cmd *cobra.Command, c *dsh.LoadedConfig) (string, error) {
	if u, _ := cmd.Flags().GetString("url"); u != "" {
		return strings.TrimRight(u, "/"), nil
	}
	if u := os.Getenv("DSH_URL"); u != "" {
		return strings.TrimRight(u, "/"), nil
	}
	if c.Host.PublicURL != "" {
		return strings.TrimRight(c.Host.PublicURL, "/"), nil
	}
	if info, err := ReadRuntimeFile(c.Host.DataDir); err == nil && info.URL != "" {
		return strings.TrimRight(info.URL, "/"), nil
	}
	host, port, err := net.SplitHostPort(c.Host.Listen)
	if err != nil || port == "" || port == "0" {
		return "", fmt.Errorf("cannot tell the host's URL (host.listen %q has no fixed port and no host runs): start `dsh serve`, set host.publicURL, or pass --url", c.Host.Listen)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port), nil
}

// loopback reports whether base points at this machine only.
func loopback(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := u.Hostname()
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// userError words an accounts refusal as the admin API does ("code:
// message"), so both ways of running a command read alike.
func userError(err error) error {
	var ae *accounts.Error
	if errors.As(err, &ae) {
		return fmt.Errorf("%s: %s", ae.Code, ae.Message)
	}
	return err
}

// withHostOrFile runs viaAPI against the running host, or viaFile when no
// host runs: no runtime file, or one left by a host that died (nothing
// answers at its URL; the request never reached a server, so nothing was
// done twice). A host given by --url or DSH_URL that does not answer is
// an error, not a reason to guess. file names what viaFile edits.
func WithHostOrFile(cmd *cobra.Command, file string, viaAPI func(Target) error, viaFile func(*dsh.LoadedConfig) error) error {
	t, err := Host(cmd)
	if err == nil {
		err = viaAPI(t)
		if !isUnreachable(err) || !t.FromRuntimeFile {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "no host answers at %s (its runtime file is stale); editing the %s directly\n", t.URL, file)
	} else if !errors.Is(err, ErrNoHost) {
		return err
	}
	c, err := LoadConfig(cmd)
	if err != nil {
		return err
	}
	return viaFile(c)
}
