package cli

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
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/plugins/admin"
)

// HostHelp is how the commands that talk to a running host find it.
const HostHelp = "Talks to the host started by `dsh serve` with the same --config (it finds the URL and a\n" +
	"token in the data directory), or to any host given --url and --token (or DSH_URL, DSH_TOKEN)."

// addHostFlags adds --url and --token to a command (and its subcommands)
// that talks to a running host.
func AddHostFlags(cmd *cobra.Command) {
	fs := cmd.PersistentFlags()
	fs.String("url", "", "host URL (default: DSH_URL, then the running host's runtime file)")
	fs.String("token", "", "bearer token (default: DSH_TOKEN, then the runtime file)")
}

// Target is a running host's admin API and the token to call it with.
type Target struct {
	URL, Token string
	// FromRuntimeFile: the URL was found in the data directory's runtime
	// file, not given by --url or DSH_URL, so a host that does not answer
	// there has died and left the file behind.
	FromRuntimeFile bool
}

// findHost finds the host a command talks to: --url/--token, then
// DSH_URL/DSH_TOKEN, then the runtime file `dsh serve` leaves in the data
// directory of --config. With no URL given and no runtime file, the error
// wraps ErrNoHost.
func Host(cmd *cobra.Command) (Target, error) {
	url, _ := cmd.Flags().GetString("url")
	token, _ := cmd.Flags().GetString("token")
	if url == "" {
		url = os.Getenv("DSH_URL")
	}
	if token == "" {
		token = os.Getenv("DSH_TOKEN")
	}
	t := Target{URL: strings.TrimRight(url, "/"), Token: token}
	if t.URL != "" && t.Token != "" {
		return t, nil
	}
	c, err := LoadConfig(cmd)
	if err != nil {
		return Target{}, err
	}
	info, err := ReadRuntimeFile(c.Host.DataDir)
	if err != nil {
		if errors.Is(err, ErrNoHost) {
			if t.URL != "" {
				return Target{}, fmt.Errorf("no token for %s: pass --token or set DSH_TOKEN", t.URL)
			}
			return Target{}, noHost(c)
		}
		return Target{}, err
	}
	if t.URL == "" {
		t.URL, t.FromRuntimeFile = info.URL, true
	}
	if t.Token == "" {
		t.Token = info.Token
	}
	return t, nil
}

// noHost is the error of a command that finds no runtime file in c's
// data directory: which directory it looked in, and how to point it at
// the host (the same --config as dsh serve's, or --url and --token). It
// wraps ErrNoHost.
func noHost(c *dsh.LoadedConfig) error {
	start := "start one with `dsh serve`"
	if c.Source.Path != "" {
		start = "start one with `dsh serve --config " + c.Source.Path + "`"
	}
	return fmt.Errorf("%w: no %s in the data directory %s\n  %s\n  or name a host with --url and --token (or DSH_URL and DSH_TOKEN)\n  or %s",
		ErrNoHost, RuntimeFileName, dataDirOf(c), otherConfigHint(c), start)
}

// Send sends one request to the running host Host finds, to any of its
// paths (a plugin's API): in (if not nil) as the JSON body, the JSON
// answer into out; a refusal is a *HostError.
func Send(cmd *cobra.Command, method, path string, in, out any) error {
	t, err := Host(cmd)
	if err != nil {
		return err
	}
	return t.Send(cmd.Context(), method, path, in, out)
}

// adminCall sends one admin API request to the host Host finds.
func adminCall(cmd *cobra.Command, method, path string, in, out any) error {
	t, err := Host(cmd)
	if err != nil {
		return err
	}
	return t.call(cmd.Context(), method, path, in, out)
}

// call sends one admin API request with the bearer token: in (if not nil)
// as the JSON body, the JSON answer into out. A refusal is returned as
// "code: message".
func (t Target) call(ctx context.Context, method, path string, in, out any) error {
	return t.Send(ctx, method, admin.AdminPrefix+path, in, out)
}

// send is call for any path of the host (a plugin's API).
func (t Target) Send(ctx context.Context, method, path string, in, out any) error {
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
		return t.notAnswered(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return refusal(resp, raw)
	}
	return json.Unmarshal(raw, out)
}

// notAnswered is err, a request to t that got no answer, saying so when
// the URL came from a runtime file a stopped host left behind.
func (t Target) notAnswered(err error) error {
	if isUnreachable(err) && t.FromRuntimeFile {
		return fmt.Errorf("no host answers at %s, the URL in the data directory's runtime file: that host stopped without\n"+
			"  removing it; start it again with `dsh serve` (%w)", t.URL, err)
	}
	return err
}

// refusal is the host's answer resp (status 300 or more) with body raw:
// a *HostError when it is the error contract's, else the status and body.
func refusal(resp *http.Response, raw []byte) error {
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error.Code != "" {
		return &HostError{Code: e.Error.Code, Message: e.Error.Message}
	}
	return fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(raw))
}

// PluginSend is Send for a path of plugin's API (plugin is its name, as
// config entries give it). A host without the plugin answers such a path
// with not_found; when no entry of the plugin is active there, the error
// says so and how to load it.
func PluginSend(cmd *cobra.Command, plugin, method, path string, in, out any) error {
	t, err := Host(cmd)
	if err != nil {
		return err
	}
	return t.PluginSend(cmd, plugin, method, path, in, out)
}

// PluginSend is Send for a path of plugin's API on t (see the function
// PluginSend); cmd is the command that sends it, for the advice.
func (t Target) PluginSend(cmd *cobra.Command, plugin, method, path string, in, out any) error {
	err := t.Send(cmd.Context(), method, path, in, out)
	var he *HostError
	if !errors.As(err, &he) || he.Code != "not_found" {
		return err
	}
	var list struct {
		Plugins []dsh.PluginInfo `json:"plugins"`
	}
	if t.call(cmd.Context(), http.MethodGet, "/plugins", nil, &list) != nil {
		return err // a token that may not list the plugins: the host's own answer
	}
	return notLoaded(cmd, t.URL, plugin, list.Plugins, err)
}

// notLoaded is err, a not_found from a path of plugin's API, or, when no
// entry of plugin is active among the host's entries, what to do about
// that.
func notLoaded(cmd *cobra.Command, url, plugin string, entries []dsh.PluginInfo, err error) error {
	var off []dsh.PluginInfo
	for _, e := range entries {
		if e.Plugin != plugin {
			continue
		}
		if e.State == "active" {
			return err // the plugin answered: the thing asked for is not there
		}
		off = append(off, e)
	}
	if len(off) == 0 {
		return fmt.Errorf("the %s plugin is not loaded on %s: its config file has no entry for it\n"+
			"  add one under plugins: in that file, `- {name: %s}` (a running dsh serve picks up the saved file)", plugin, url, plugin)
	}
	e := off[0]
	state, verb := e.State, "load"
	switch {
	case e.State == "failed":
		state, verb = "failed: "+e.Error, "reload"
	case e.Disabled && !e.Loaded:
		state = "disabled in the config"
	}
	return fmt.Errorf("the %s plugin is not loaded on %s (its entry %s is %s)\n  load it with: %s", plugin, url, e.ID, state, hostCommand(cmd, "dsh plugins "+verb+" "+e.ID))
}

// hostCommand is line with the flags that point it at the same host as
// cmd: its --config, --url and --token (by name, never the value).
func hostCommand(cmd *cobra.Command, line string) string {
	if c := configFlag(cmd); c != "" {
		line += " --config " + c
	}
	if u, _ := cmd.Flags().GetString("url"); u != "" {
		line += " --url " + u
	}
	if tok, _ := cmd.Flags().GetString("token"); tok != "" {
		line += " --token …"
	}
	return line
}

// HostError is the running host's refusal: the error contract's code and
// message, printed as "code: message".
type HostError struct{ Code, Message string }

func (e *HostError) Error() string { return e.Code + ": " + e.Message }

// isUnreachable reports an error from a request that never reached a
// server: nothing listens at the address (any more).
func isUnreachable(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
