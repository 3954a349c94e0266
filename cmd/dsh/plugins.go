package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/kernel"
)

func newPlugins() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "List, load, unload or reload the plugins of a running host",
		Long:  hostHelp,
	}
	addHostFlags(cmd)
	cmd.AddCommand(&cobra.Command{
		Use: "ls", Short: "List plugin entries and their state", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var out struct {
				Plugins []dsh.PluginInfo `json:"plugins"`
			}
			if err := adminCall(cmd, http.MethodGet, "/plugins", nil, &out); err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tPLUGIN\tSTATE\tSCOPE\tERROR")
			for _, p := range out.Plugins {
				state := p.State
				if p.Disabled && !p.Loaded {
					state = "disabled"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", p.ID, p.Plugin, state, p.ScopeID, p.Error)
			}
			return tw.Flush()
		},
	})
	for _, action := range []string{"load", "unload", "reload"} {
		cmd.AddCommand(&cobra.Command{
			Use: action + " ID", Short: action + " a plugin entry at runtime", Args: cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				var out struct {
					Plugin dsh.PluginInfo `json:"plugin"`
				}
				if err := adminCall(cmd, http.MethodPost, "/plugins/"+args[0]+"/"+action, nil, &out); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %s\n", out.Plugin.ID, out.Plugin.State)
				return nil
			},
		})
	}
	return cmd
}

// hostHelp is how the commands that talk to a running host find it.
const hostHelp = "Talks to the host started by `dsh serve` with the same --config (it finds the URL and a\n" +
	"token in the data directory), or to any host given --url and --token (or DSH_URL, DSH_TOKEN)."

// addHostFlags adds --url and --token to a command (and its subcommands)
// that talks to a running host.
func addHostFlags(cmd *cobra.Command) {
	fs := cmd.PersistentFlags()
	fs.String("url", "", "host URL (default: DSH_URL, then the running host's runtime file)")
	fs.String("token", "", "bearer token (default: DSH_TOKEN, then the runtime file)")
}

// hostTarget is a running host's admin API and the token to call it with.
type hostTarget struct {
	URL, Token string
	// FromRuntimeFile: the URL was found in the data directory's runtime
	// file, not given by --url or DSH_URL, so a host that does not answer
	// there has died and left the file behind.
	FromRuntimeFile bool
}

// findHost finds the host a command talks to: --url/--token, then
// DSH_URL/DSH_TOKEN, then the runtime file `dsh serve` leaves in the data
// directory of --config. With no URL given and no runtime file, the error
// wraps kernel.ErrNoHost.
func findHost(cmd *cobra.Command) (hostTarget, error) {
	url, _ := cmd.Flags().GetString("url")
	token, _ := cmd.Flags().GetString("token")
	if url == "" {
		url = os.Getenv("DSH_URL")
	}
	if token == "" {
		token = os.Getenv("DSH_TOKEN")
	}
	t := hostTarget{URL: strings.TrimRight(url, "/"), Token: token}
	if t.URL != "" && t.Token != "" {
		return t, nil
	}
	c, err := loadConfig(cmd)
	if err != nil {
		return hostTarget{}, err
	}
	info, err := kernel.ReadRuntimeFile(c.Host.DataDir)
	if err != nil {
		if t.URL != "" && errors.Is(err, kernel.ErrNoHost) {
			return hostTarget{}, fmt.Errorf("no token for %s: pass --token or set DSH_TOKEN", t.URL)
		}
		return hostTarget{}, err
	}
	if t.URL == "" {
		t.URL, t.FromRuntimeFile = info.URL, true
	}
	if t.Token == "" {
		t.Token = info.Token
	}
	return t, nil
}

// adminCall sends one admin API request to the host findHost finds.
func adminCall(cmd *cobra.Command, method, path string, in, out any) error {
	t, err := findHost(cmd)
	if err != nil {
		return err
	}
	return t.call(cmd.Context(), method, path, in, out)
}

// call sends one admin API request with the bearer token: in (if not nil)
// as the JSON body, the JSON answer into out. A refusal is returned as
// "code: message".
func (t hostTarget) call(ctx context.Context, method, path string, in, out any) error {
	return t.send(ctx, method, kernel.AdminPrefix+path, in, out)
}

// send is call for any path of the host (a plugin's API).
func (t hostTarget) send(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, t.URL+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+t.Token)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := &http.Client{Timeout: 90 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if json.Unmarshal(raw, &e) == nil && e.Error.Code != "" {
			return &hostError{Code: e.Error.Code, Message: e.Error.Message}
		}
		return fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(raw))
	}
	return json.Unmarshal(raw, out)
}

// hostError is the running host's refusal: the error contract's code and
// message, printed as "code: message".
type hostError struct{ Code, Message string }

func (e *hostError) Error() string { return e.Code + ": " + e.Message }

// isUnreachable reports an error from a request that never reached a
// server: nothing listens at the address (any more).
func isUnreachable(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
