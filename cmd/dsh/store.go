package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/app"
	"github.com/dshgo/dsh/internal/kernel"
	"github.com/dshgo/dsh/internal/migrate"
	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile"
	"github.com/dshgo/dsh/plugins/database"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/boards"
	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/files"
	"github.com/dshgo/dsh/plugins/excalidraw/oauth"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
	"github.com/dshgo/dsh/plugins/excalidraw/store/pgstore"
	"github.com/dshgo/dsh/plugins/hostinfo"
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
		Short: "Copy scenes with their history, people, tokens, sessions, boards, files and exports",
		Long: "Copies everything dsh keeps from one store to the other, checking each scene's revision, bytes\n" +
			"and journal after the copy. The files are the data directory and the Excalidraw entry's folders\n" +
			"of --config; the database is host.store's DSN (or --dsn, or the variable host.store.dsnEnv names).\n" +
			"Stop dsh first (no node may write while it copies). Running it again copies nothing twice: what\n" +
			"is there identically is left alone, and a scene that differs is refused, never overwritten.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			from, _ := cmd.Flags().GetString("from")
			to, _ := cmd.Flags().GetString("to")
			if !((from == "fs" && to == "postgres") || (from == "postgres" && to == "fs")) {
				return fmt.Errorf("--from fs --to postgres, or --from postgres --to fs (not --from %q --to %q)", from, to)
			}
			c, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			if info, err := kernel.ReadRuntimeFile(c.Host.DataDir); err == nil {
				if t := (hostTarget{URL: info.URL, Token: info.Token}); !isUnreachable(t.call(cmd.Context(), http.MethodGet, "/plugins", nil, nil)) {
					return fmt.Errorf("a dsh host is running on this data directory (%s): stop it first, so nothing changes while it is copied", info.URL)
				}
			} else if !errors.Is(err, kernel.ErrNoHost) {
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

// runMigrate opens both sides of --config and copies one way.
func runMigrate(cmd *cobra.Command, c *dsh.LoadedConfig, dsn string, toPostgres, replace bool) error {
	ctx, cancel := context.WithTimeout(cmd.Context(), 24*time.Hour)
	defer cancel()
	plugin, err := excalidrawConfig(c)
	if err != nil {
		return err
	}
	fsSide, closeFS, err := fileSide(c, plugin)
	if err != nil {
		return err
	}
	defer closeFS()
	db, err := dsh.OpenDatabase(ctx, dsh.StoreConfig{Kind: dsh.StorePostgres, DSN: dsn}, nil)
	if err != nil {
		return err
	}
	defer db.Pool.Close()
	pool := db.Pool
	pgSide, err := postgresSide(ctx, db, plugin)
	if err != nil {
		return err
	}
	dst, src := pgSide, fsSide
	if !toPostgres {
		dst, src = fsSide, pgSide
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "copying %s → %s (%s)\n", src.Name, dst.Name, pgdb.Where(pool))
	lines, err := migrate.Copy(ctx, dst, src, migrate.Options{Replace: replace})
	tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tCOPIED\tUNCHANGED\tJOURNAL ENTRIES")
	for _, l := range lines {
		j := "-"
		if l.Kind == "scenes" {
			j = fmt.Sprint(l.Journal)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", l.Kind, l.Copied, l.Unchanged, j)
	}
	_ = tw.Flush()
	if err != nil {
		return fmt.Errorf("stopped: %w (run it again once it is fixed: what was copied stays)", err)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "done: every scene's revision, bytes and journal checked in the destination")
	return nil
}

// excalidrawConfig is the config of --config's Excalidraw entry (its
// defaults when there is none).
func excalidrawConfig(c *dsh.LoadedConfig) (excalidraw.Config, error) {
	var cfg excalidraw.Config
	raw := map[string]any{}
	for _, e := range c.File.Plugins {
		if e.Name == excalidraw.Plugin.Name && !e.Disabled {
			raw = e.Config
			break
		}
	}
	if len(raw) == 0 {
		// No entry: the schema's defaults.
		f, err := dsh.LoadConfig(dsh.ConfigSource{YAML: []byte("plugins:\n  - {name: excalidraw}\n")}, catalog()...)
		if err != nil {
			return cfg, err
		}
		raw = f.File.Plugins[0].Config
	}
	return cfg, app.Config(raw).Decode(&cfg)
}

// fileSide is the data directory's store.
func fileSide(c *dsh.LoadedConfig, cfg excalidraw.Config) (migrate.Side, func(), error) {
	host := hostinfo.Info{DataDir: c.Host.DataDir}
	drawings := host.Resolve(cfg.DrawingsDir)
	lim := limitsOf(cfg)
	if err := os.MkdirAll(filepath.Dir(drawings), 0o700); err != nil {
		return migrate.Side{}, nil, err
	}
	scenes, err := store.Open(store.Options{Dir: drawings, Codec: scene.Codec{Limits: lim.ForReading()}, MaxSceneBytes: lim.ForReading().MaxSceneBytes})
	if err != nil {
		return migrate.Side{}, nil, err
	}
	fl, err := files.Open(files.Config{Dir: host.Resolve(cfg.Files.Dir), MaxFileBytes: cfg.Files.MaxFileBytes})
	if err != nil {
		_ = scenes.Close()
		return migrate.Side{}, nil, err
	}
	ex, err := exports.Open(exports.Config{Dir: host.Resolve(cfg.Exports.Dir), Secret: []byte(cfg.Exports.Secret)})
	if err != nil {
		_ = scenes.Close()
		_ = fl.Close()
		return migrate.Side{}, nil, err
	}
	paths := map[string]string{
		accounts.StateDoc:      accounts.File(c.Host.DataDir),
		connection.TokensDoc:   dsh.TokenFile(c.Host.DataDir),
		connection.SessionsDoc: connection.SessionFile(c.Host.DataDir),
		boards.StateDoc:        boards.File(drawings),
		oauth.ClientsDoc:       host.Resolve(oauth.ClientsFile),
	}
	doc := func(name string) statefile.Doc { return statefile.File(paths[name], name+" file") }
	return migrate.Side{Name: "fs", Scenes: scenes, Doc: doc, Files: fl, Exports: ex},
		func() { _ = scenes.Close(); _ = fl.Close() }, nil
}

// postgresSide is the database's store.
func postgresSide(ctx context.Context, db *database.DB, cfg excalidraw.Config) (migrate.Side, error) {
	pool, lim := db.Pool, limitsOf(cfg)
	scenes, err := pgstore.Open(ctx, pgstore.Options{Pool: pool, Codec: scene.Codec{Limits: lim.ForReading()}, MaxSceneBytes: lim.ForReading().MaxSceneBytes})
	if err != nil {
		return migrate.Side{}, err
	}
	fl, err := files.OpenPostgres(pool, files.Config{MaxFileBytes: cfg.Files.MaxFileBytes})
	if err != nil {
		return migrate.Side{}, err
	}
	ex, err := exports.OpenPostgres(pool, exports.Config{Secret: []byte(cfg.Exports.Secret)})
	if err != nil {
		return migrate.Side{}, err
	}
	return migrate.Side{Name: "postgres", Scenes: scenes, Doc: db.State.Doc, Files: fl, Exports: ex}, nil
}

func limitsOf(cfg excalidraw.Config) scene.Limits {
	return scene.Limits{MaxSceneBytes: cfg.MaxSceneBytes, MaxElements: cfg.MaxElements, MaxFiles: cfg.MaxFiles, MaxTextLength: cfg.MaxTextLength}.Effective()
}
