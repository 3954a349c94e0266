package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"go.uber.org/dig"
	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/pgdb"
)

// Execute runs root and, on an error, prints it on stderr as one line a
// person can act on ("dsh: …", Explain), with the whole error after it
// under --verbose. It returns the process's exit code.
func Execute(ctx context.Context, root *cobra.Command) int {
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	if cmd == nil {
		cmd = root
	}
	short := Explain(cmd, err)
	fmt.Fprintln(cmd.ErrOrStderr(), "dsh:", short)
	if verbose(cmd) && err.Error() != short {
		fmt.Fprintln(cmd.ErrOrStderr(), "details:", err)
	}
	return 1
}

// Explain is err as dsh prints it: a database that does not answer as
// where it was looked for and which setting names it; an error from
// building the host as its cause, without the dependency graph's report
// around it; anything else as it is.
func Explain(cmd *cobra.Command, err error) string {
	var down *pgdb.UnreachableError
	if errors.As(err, &down) {
		return fmt.Sprintf("cannot reach the database at %s (%s): check %s", down.Addr, down.Cause, dsnSetting(cmd))
	}
	return dig.RootCause(err).Error()
}

// dsnSetting names where the command's database DSN came from: --dsn,
// the environment variable host.store.dsnEnv names, or host.store.dsn in
// the config file.
func dsnSetting(cmd *cobra.Command) string {
	if f := cmd.Flags().Lookup("dsn"); f != nil && f.Changed {
		return "--dsn"
	}
	c, err := LoadConfig(cmd)
	if err != nil {
		return "host.store.dsn"
	}
	if env := c.Host.Store.DSNEnv; env != "" && os.Getenv(env) != "" {
		return "the " + env + " environment variable (host.store.dsnEnv)"
	}
	if c.Source.Path != "" {
		return "host.store.dsn in " + c.Source.Path
	}
	return "host.store.dsn"
}

// verbose reports --verbose.
func verbose(cmd *cobra.Command) bool {
	v, _ := cmd.Flags().GetBool("verbose")
	return v
}

// quietFramework is the host's option for `dsh serve` and `dsh mcp`: a
// host that cannot be built or started fails the command with one line
// (Execute), so the framework's own report of that failure goes to the
// log at debug level, where host.log.level debug shows it (--verbose
// logs it as an error, as the library does). Failures while stopping stay
// errors.
func quietFramework(cmd *cobra.Command) dsh.Option {
	loud := verbose(cmd)
	return dsh.WithFx(fx.WithLogger(func(l *zap.Logger) fxevent.Logger {
		events := &fxevent.ZapLogger{Logger: l.Named("fx")}
		events.UseLogLevel(zapcore.DebugLevel)
		if loud {
			return events
		}
		start := &fxevent.ZapLogger{Logger: l.Named("fx")}
		start.UseLogLevel(zapcore.DebugLevel)
		start.UseErrorLevel(zapcore.DebugLevel)
		return startQuiet{events: events, start: start}
	}))
}

// startQuiet logs the events of building and starting the host with
// start, and the others with events.
type startQuiet struct{ events, start fxevent.Logger }

func (q startQuiet) LogEvent(e fxevent.Event) {
	switch e.(type) {
	case *fxevent.Provided, *fxevent.Supplied, *fxevent.Decorated, *fxevent.Replaced, *fxevent.Run,
		*fxevent.Invoked, *fxevent.OnStartExecuted, *fxevent.RollingBack, *fxevent.RolledBack, *fxevent.Started:
		q.start.LogEvent(e)
	default:
		q.events.LogEvent(e)
	}
}

// dataDirOf says which data directory c is and why: the config file's
// host.dataDir, or the default one when no --config was given.
func dataDirOf(c *dsh.LoadedConfig) string {
	if c.Source.Path == "" {
		return fmt.Sprintf("%s (the default data directory, ./data in the current folder: no --config was given)", c.Host.DataDir)
	}
	return fmt.Sprintf("%s (host.dataDir of %s)", c.Host.DataDir, c.Source.Path)
}

// otherConfigHint says how to reach the data directory of a host that
// runs with another config.
func otherConfigHint(c *dsh.LoadedConfig) string {
	if c.Source.Path == "" {
		return "if dsh serve runs with a config file, pass the same one: --config <file>"
	}
	return "if dsh serve runs with another config file, pass that one: --config <file>"
}

// warnNoFile prints, on stderr, that the data directory of c has no file
// of that kind yet, when st keeps its state in files: a listing that is
// empty because the command looked in the wrong place says so. An empty
// file that is there is a real empty list, and says nothing.
func warnNoFile(cmd *cobra.Command, st *State, path, what string) {
	if st.Storage().DB() != nil {
		return
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		return
	}
	where := "has no " + what + " yet (" + filepath.Base(path) + ")"
	if _, err := os.Stat(st.c.Host.DataDir); errors.Is(err, os.ErrNotExist) {
		where = "does not exist"
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "note: nothing to list: the data directory %s %s\n  %s\n",
		dataDirOf(st.c), where, otherConfigHint(st.c))
}
