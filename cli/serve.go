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

func newServe() *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Run the host: web server, agent endpoint (/mcp) and the configured plugins",
		Args:  cobra.NoArgs,
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
			link, _, err := h.Connection.LoginLink(ctx, h.URL(), landingPage(modulesOf(cmd), h.Plugins()))
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "dsh is serving at %s\n", h.URL())
			fmt.Fprintf(out, "  open this link in your browser to log in (works once): %s\n", link)
			fmt.Fprintf(out, "  agents connect to %s%s with a bearer token (dsh token create NAME)\n", h.URL(), mcpserve.Path)
			<-ctx.Done()
			fmt.Fprintln(out, "dsh is stopping")
			RemoveRuntimeFile(dataDir, os.Getpid())
			stopCtx, cancelStop := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancelStop()
			return h.Stop(stopCtx)
		},
	}
}
