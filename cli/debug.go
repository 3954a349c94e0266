package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh/plugins/admin"
)

// The files `dsh debug` writes in its folder.
const (
	DebugGoroutinesFile = "goroutines.txt"
	DebugCPUFile        = "cpu.pprof"
)

func newDebug() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "debug",
		Short: "Fetch a CPU profile and a goroutine dump from the running host",
		Long: "Saves what a slow or stuck host is doing into a folder: every goroutine's stack (" + DebugGoroutinesFile + ")\n" +
			"and a CPU profile over --seconds (" + DebugCPUFile + ", for `go tool pprof`). They come from the host's\n" +
			"admin API (" + admin.PprofPrefix + "), so the token must be an admin's.\n\n" + HostHelp,
		Example: "  dsh debug --seconds 5 --config config.example.yaml",
		Args:    cobra.NoArgs,
		RunE:    runDebug,
	}
	AddHostFlags(cmd)
	cmd.Flags().Int("seconds", 10, "how long to profile the CPU (1 to 300)")
	cmd.Flags().String("out", "", "folder to write into (default: a new dsh-debug-<time> in the current folder)")
	return cmd
}

func runDebug(cmd *cobra.Command, _ []string) error {
	seconds, _ := cmd.Flags().GetInt("seconds")
	if seconds < 1 || seconds > 300 {
		return fmt.Errorf("--seconds must be 1 to 300, not %d", seconds)
	}
	t, err := Host(cmd)
	if err != nil {
		return err
	}
	dir, _ := cmd.Flags().GetString("out")
	if dir == "" {
		dir = "dsh-debug-" + time.Now().Format("20060102-150405")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	steps := []struct{ path, file, what string }{
		{"/goroutine?debug=2", DebugGoroutinesFile, "goroutine dump"},
		{"/profile?seconds=" + strconv.Itoa(seconds), DebugCPUFile, fmt.Sprintf("CPU profile over %d s", seconds)},
	}
	for _, s := range steps {
		if s.file == DebugCPUFile {
			fmt.Fprintf(cmd.ErrOrStderr(), "profiling the CPU for %d s…\n", seconds)
		}
		path := filepath.Join(dir, s.file)
		n, err := t.download(cmd.Context(), admin.PprofPrefix+s.path, path, time.Duration(seconds)*time.Second+time.Minute)
		if err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
		fmt.Fprintf(out, "wrote %s (%s, %d bytes)\n", path, s.what, n)
	}
	fmt.Fprintf(out, "read the profile with: go tool pprof %s\n", filepath.Join(dir, DebugCPUFile))
	return nil
}

// download saves the answer to a GET of path on t into the file dst,
// within timeout; a refusal is a *HostError and leaves no file.
func (t Target) download(ctx context.Context, path, dst string, timeout time.Duration) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.URL+path, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+t.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, t.notAnswered(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return 0, refusal(resp, raw)
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, resp.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(dst)
		return 0, errors.Join(errors.New("the answer broke off"), err)
	}
	return n, nil
}
