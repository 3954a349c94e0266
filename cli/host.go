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

	"github.com/dshgo/dsh/plugins/admin"
	"github.com/spf13/cobra"
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
		if t.URL != "" && errors.Is(err, ErrNoHost) {
			return Target{}, fmt.Errorf("no token for %s: pass --token or set DSH_TOKEN", t.URL)
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
			return &HostError{Code: e.Error.Code, Message: e.Error.Message}
		}
		return fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(raw))
	}
	return json.Unmarshal(raw, out)
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
