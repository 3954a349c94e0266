package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/migrate"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/storage"
	"github.com/dshgo/dsh/plugins/webserver/accounts"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

func newStore() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "store",
		Short: "Move what dsh keeps between the data directory and a PostgreSQL database",
	}
	m := &cobra.Command{
		Use:   "migrate --from fs|postgres --to postgres|fs",
		Short: "Copy everything dsh keeps from the data directory to a database, or back",
		Long: "Copies everything dsh keeps from one store to the other: the host's people, tokens and sessions,\n" +
			"and what each linked plugin keeps (the Excalidraw plugin's scenes with their history, checked\n" +
			"revision, bytes and journal after the copy). The files are the data directory and the plugins'\n" +
			"folders of --config; the database is host.store's DSN (or --dsn, or the variable host.store.dsnEnv\n" +
			"names). Stop dsh first (no node may write while it copies). On a terminal it shows the items\n" +
			"copied as it goes; otherwise it prints a table and one summary line. It is safe to interrupt\n" +
			"(Ctrl+C) and run again: what was copied stays, each scene is copied whole or not at all, and\n" +
			"nothing is copied twice: what is there identically is left alone, and a scene that differs is\n" +
			"refused, never overwritten.",
		Example: "  export DSH_STORE_DSN=postgres://dsh:PASSWORD@db.example.com:5432/dsh\n" +
			"  dsh store migrate --from fs --to postgres --config config.example.yaml\n" +
			"  dsh store migrate --from postgres --to fs --dsn postgres://dsh:PASSWORD@db.example.com:5432/dsh --config config.example.yaml",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			from, _ := cmd.Flags().GetString("from")
			to, _ := cmd.Flags().GetString("to")
			if !((from == "fs" && to == "postgres") || (from == "postgres" && to == "fs")) {
				return fmt.Errorf("--from fs --to postgres, or --from postgres --to fs (not --from %q --to %q)", from, to)
			}
			c, err := LoadConfig(cmd)
			if err != nil {
				return err
			}
			if info, err := ReadRuntimeFile(c.Host.DataDir); err == nil {
				if t := (Target{URL: info.URL, Token: info.Token}); !isUnreachable(t.call(cmd.Context(), http.MethodGet, "/plugins", nil, nil)) {
					return fmt.Errorf("a dsh host is running on this data directory (%s): stop it first, so nothing changes while it is copied", info.URL)
				}
			} else if !errors.Is(err, ErrNoHost) {
				return err
			}
			dsn, _ := cmd.Flags().GetString("dsn")
			if dsn == "" {
				st := c.Host.Store
				st.Kind = dsh.StorePostgres
				if dsn, err = st.ResolveDSN(os.Getenv); err != nil {
					return fmt.Errorf("no database to migrate with: pass --dsn, or set %s or host.store.dsn", st.DSNEnv)
				}
			}
			replace, _ := cmd.Flags().GetBool("replace")
			return runMigrate(cmd, c, dsn, from == "fs", replace)
		},
	}
	m.Flags().String("from", "", "fs or postgres")
	m.Flags().String("to", "", "postgres or fs")
	m.Flags().String("dsn", "", "the database (default: host.store's)")
	m.Flags().Bool("replace", false, "overwrite people, tokens, sessions, boards or OAuth clients the destination already holds differently")
	cmd.AddCommand(m)
	return cmd
}

// Migration is one `dsh store migrate` run, as a module's Migrate sees
// it: copy the module's data From one store To the other and verify it.
type Migration struct {
	// Config is --config, read.
	Config *dsh.LoadedConfig
	// Entry is the config of the module plugin's first entry that is not
	// disabled (its schema's defaults when there is none).
	Entry app.Config
	// From and To are the two stores.
	From, To *storage.Storage
	Options  migrate.Options
}

// MigrateLine is one line of the migration's report.
type MigrateLine = migrate.Line

// hostDocs are the host's own state documents `dsh store migrate`
// copies, with their files in the data directory. Login links live
// minutes and are not copied.
func hostDocs(dataDir string) map[string]string {
	return map[string]string{
		accounts.StateDoc:      accounts.File(dataDir),
		connection.TokensDoc:   dsh.TokenFile(dataDir),
		connection.SessionsDoc: connection.SessionFile(dataDir),
	}
}

// runMigrate opens both stores of --config and copies one way: each
// module's data, then the host's documents.
func runMigrate(cmd *cobra.Command, c *dsh.LoadedConfig, dsn string, toPostgres, replace bool) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 24*time.Hour)
	defer cancel()
	files := storage.Files(c.Host.DataDir)
	db, err := dsh.OpenStorage(ctx, c.Host.DataDir, dsh.StoreConfig{Kind: dsh.StorePostgres, DSN: dsn}, nil)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted: %w", err)
		}
		return err
	}
	defer db.Close()
	dst, src := db, files
	if !toPostgres {
		dst, src = files, db
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "copying %s → %s (%s)\n", src.Kind(), dst.Kind(), db.Where())
	p := newCounter(cmd, "migrated", "items")
	lines, err := copyStores(ctx, cmd, c, src, dst, migrate.Options{Replace: replace, Progress: func(string, string, string) { p.add(0) }})
	p.clear()
	tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tCOPIED\tUNCHANGED\tJOURNAL ENTRIES")
	for _, l := range merged(lines) {
		j := "-"
		if l.Journaled {
			j = fmt.Sprint(l.Journal)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", l.Kind, l.Copied, l.Unchanged, j)
	}
	_ = tw.Flush()
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted: %w (run it again to finish: what was copied stays)", err)
		}
		return fmt.Errorf("stopped: %w (run it again once it is fixed: what was copied stays)", err)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "done: every scene's revision, bytes and journal checked in the destination")
	p.files = 0 // the summary counts all, the plugins' files too, which report no progress
	for _, l := range lines {
		p.files += l.Copied + l.Unchanged
	}
	p.finish(cmd, fmt.Sprintf("%s → %s (%s)", src.Kind(), dst.Kind(), db.Where()))
	return nil
}

// copyStores copies what c's modules and the host keep from src to dst:
// each module's data, then the host's documents.
func copyStores(ctx context.Context, cmd *cobra.Command, c *dsh.LoadedConfig, src, dst *storage.Storage, o migrate.Options) ([]migrate.Line, error) {
	var lines []migrate.Line
	for _, m := range modulesOf(cmd) {
		if m.Migrate == nil {
			continue
		}
		entry, err := entryConfig(cmd, c, m.Plugin.Name)
		if err != nil {
			return lines, err
		}
		ls, err := m.Migrate(ctx, &Migration{Config: c, Entry: entry, From: src, To: dst, Options: o})
		if lines = append(lines, ls...); err != nil {
			return lines, err
		}
	}
	paths := hostDocs(c.Host.DataDir)
	names := slices.Sorted(maps.Keys(paths))
	docOf := func(st *storage.Storage) migrate.DocOf {
		return func(name string) statefile.Doc { return st.Doc(name, paths[name], name+" file") }
	}
	l, err := migrate.Docs(ctx, docOf(dst), docOf(src), names, o)
	return append(lines, l), err
}

// merged is lines with those of one kind added up, in the order each
// kind first came.
func merged(lines []migrate.Line) []migrate.Line {
	var out []migrate.Line
	at := map[string]int{}
	for _, l := range lines {
		i, ok := at[l.Kind]
		if !ok {
			at[l.Kind] = len(out)
			out = append(out, l)
			continue
		}
		out[i].Copied += l.Copied
		out[i].Unchanged += l.Unchanged
		out[i].Journal += l.Journal
		out[i].Journaled = out[i].Journaled || l.Journaled
	}
	return out
}

// entryConfig is the config of --config's first entry of the plugin
// called name that is not disabled (its schema's defaults when there is
// none).
func entryConfig(cmd *cobra.Command, c *dsh.LoadedConfig, name string) (app.Config, error) {
	for _, e := range c.File.Plugins {
		if e.Name == name && !e.Disabled {
			if len(e.Config) > 0 {
				return e.Config, nil
			}
			break
		}
	}
	f, err := dsh.LoadConfig(dsh.ConfigSource{YAML: []byte("plugins:\n  - {name: " + name + "}\n")}, catalog(cmd)...)
	if err != nil {
		return nil, err
	}
	return f.File.Plugins[0].Config, nil
}
