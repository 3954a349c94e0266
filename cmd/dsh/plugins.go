package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/internal/kernel"
)

func newPlugins() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "List, load, unload or reload the plugins of a running host",
		Long: "Talks to the host started by `dsh serve` with the same --config (it finds the URL and a\n" +
			"token in the data directory), or to any host given --url and --token (or DSH_URL, DSH_TOKEN).",
	}
	cmd.PersistentFlags().String("url", "", "host URL (default: from the running host's runtime file)")
	cmd.PersistentFlags().String("token", "", "bearer token (default: DSH_TOKEN, then the runtime file)")
	cmd.AddCommand(&cobra.Command{
		Use: "ls", Short: "List plugin entries and their state", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var out struct {
				Plugins []kernel.EntryInfo `json:"plugins"`
			}
			if err := adminCall(cmd, http.MethodGet, "/plugins", &out); err != nil {
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
					Plugin kernel.EntryInfo `json:"plugin"`
				}
				if err := adminCall(cmd, http.MethodPost, "/plugins/"+args[0]+"/"+action, &out); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %s\n", out.Plugin.ID, out.Plugin.State)
				return nil
			},
		})
	}
	return cmd
}

// adminCall sends one admin API request with a bearer token.
func adminCall(cmd *cobra.Command, method, path string, out any) error {
	url, _ := cmd.Flags().GetString("url")
	token, _ := cmd.Flags().GetString("token")
	if url == "" {
		url = os.Getenv("DSH_URL")
	}
	if token == "" {
		token = os.Getenv("DSH_TOKEN")
	}
	if url == "" || token == "" {
		c, err := loadConfig(cmd)
		if err != nil {
			return err
		}
		info, err := kernel.ReadRuntimeFile(c.Host.DataDir)
		if err != nil {
			return err
		}
		if url == "" {
			url = info.URL
		}
		if token == "" {
			token = info.Token
		}
	}
	req, err := http.NewRequestWithContext(cmd.Context(), method, url+kernel.AdminPrefix+path, bytes.NewReader(nil))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	client := &http.Client{Timeout: 90 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if json.Unmarshal(body, &e) == nil && e.Error.Code != "" {
			return fmt.Errorf("%s: %s", e.Error.Code, e.Error.Message)
		}
		return fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(body))
	}
	return json.Unmarshal(body, out)
}
