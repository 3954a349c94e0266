package cli

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
)

func newMCP() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the agent tools over MCP on stdin and stdout (for desktop agents)",
		Long: "Runs the host without a web server and speaks MCP (newline-delimited JSON-RPC) on stdin and\n" +
			"stdout, for a desktop agent that starts dsh itself. Logs go to stderr. It exits when stdin closes.\n" +
			"It reads and writes the same data as `dsh serve` with the same --config (see `dsh serve --help`).",
		Example: "  dsh mcp --config config.example.yaml",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, err := dsh.New(hostOptions(cmd, dsh.Headless())...)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := h.Start(ctx); err != nil {
				return err
			}
			serveErr := h.MCP.ServeStdio(ctx, cmd.InOrStdin(), cmd.OutOrStdout())
			stopCtx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if err := h.Stop(stopCtx); err != nil {
				return err
			}
			if ctx.Err() != nil {
				return nil
			}
			return serveErr
		},
	}
}
