package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"go.uber.org/zap"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/plugins/tools/mcpserve"
)

func newServe(mods []Module) *cobra.Command {
	return &cobra.Command{
		Use:     "serve",
		Short:   "Run the host: the web server, the agent endpoint /mcp and the plugins",
		Long:    serveHelp(mods),
		Example: "  dsh serve --config config.example.yaml\n  dsh serve        # built-in defaults: 127.0.0.1:7420, data in ./data",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, err := dsh.New(hostOptions(cmd)...)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			startCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			if err := h.Start(startCtx); err != nil {
				return err
			}
			dataDir := h.Config.Host.DataDir
			if _, err := WriteRuntimeFile(dataDir, RuntimeInfo{
				URL: h.URL(), PID: os.Getpid(), Token: h.Token(), StartedAt: time.Now().UTC(),
			}); err != nil {
				h.Log.Warn("could not write the runtime file; `dsh plugins` will need --url and --token", zap.Error(err))
			}
			link, _, err := h.Connection.LoginLink(ctx, h.Web.PublicURL(), landingPage(modulesOf(cmd), h.Plugins()))
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "dsh is serving at %s\n", h.URL())
			fmt.Fprintf(out, "  open this link in your browser to log in (works once): %s\n", link)
			fmt.Fprintf(out, "  agents connect to %s%s with a bearer token (dsh token create NAME)\n", h.URL(), mcpserve.Path)
			fmt.Fprintf(out, "  data directory: %s\n", dataDir)
			<-ctx.Done()
			fmt.Fprintln(out, "dsh is stopping")
			RemoveRuntimeFile(dataDir, os.Getpid())
			stopCtx, cancelStop := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancelStop()
			return h.Stop(stopCtx)
		},
	}
}

// serveHelp is `dsh serve`'s long help: what it prints, and where the
// host and each module's plugin keep their data.
func serveHelp(mods []Module) string {
	h := "Starts the web server (the plugins' pages and APIs, the sign-in pages) and the agent endpoint /mcp,\n" +
		"and loads the plugins the config file lists. Once it serves it prints, on stdout:\n" +
		"  - the URL it serves at (host.listen, by default http://127.0.0.1:7420, this machine only);\n" +
		"  - a one-time link that signs your browser in as the host's owner (works once, for a few\n" +
		"    minutes; `dsh login` prints another);\n" +
		"  - the agent endpoint, which takes a bearer token (`dsh token create NAME`);\n" +
		"  - the data directory.\n" +
		"Logs go to stderr (host.log). Ctrl+C stops it: open editors and agent sessions are closed first.\n" +
		"dsh watches the config file: save it and the plugin entries that changed are reloaded.\n\n" +
		"Where data goes: the data directory, host.dataDir (default ./data, relative to the config file;\n" +
		"without --config, ./data in the current folder), holds people (accounts.json), tokens (tokens.json),\n" +
		"browser sessions (sessions.json) and the runtime file the other commands find the host by.\n"
	for _, m := range mods {
		if m.Data != "" {
			h += m.Data + "\n"
		}
	}
	return h + "With host.store.kind postgres everything but the runtime file is kept in that database instead\n" +
		"(see `dsh store migrate`). config.example.yaml shows every setting with its default."
}
