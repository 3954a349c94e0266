package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/migrate"
	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/plugins/storage"
)

// The database's side of backup and restore. `dsh backup` of a config on
// PostgreSQL first copies what the database keeps into a temporary data
// directory, as `dsh store migrate --from postgres --to fs` writes it
// (each scene read whole in one read-only transaction, byte for byte),
// and archives that directory; `dsh restore` into such a config checks
// that the database holds nothing, extracts the archive into a temporary
// directory and copies it into the database. The archive is the same
// either way: one taken from the file store restores into a database and
// back.

// backupDatabase writes the archive of what c's database keeps.
func backupDatabase(cmd *cobra.Command, c *dsh.LoadedConfig, file string) error {
	ctx := cmd.Context()
	tmp, err := os.MkdirTemp("", "dsh-backup-")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer os.RemoveAll(tmp)
	db, err := dsh.OpenStorage(ctx, tmp, c.Host.Store, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	local := *c
	local.Host.DataDir = tmp
	if _, err := copyStores(ctx, cmd, &local, db, storage.Files(tmp), migrate.Options{}); err != nil {
		return fmt.Errorf("backup: reading the database %s: %w", db.Where(), err)
	}
	return runBackup(cmd, &local, file)
}

// restoreDatabase fills c's database, which must be empty, from the
// archive file.
func restoreDatabase(cmd *cobra.Command, c *dsh.LoadedConfig, file string) error {
	ctx := cmd.Context()
	tmp, err := os.MkdirTemp("", "dsh-restore-")
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer os.RemoveAll(tmp)
	db, err := dsh.OpenStorage(ctx, tmp, c.Host.Store, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := databaseEmpty(ctx, db); err != nil {
		return err
	}
	dir := filepath.Join(tmp, "data")
	p, err := restoreFiles(cmd, file, dir)
	if err != nil {
		return err
	}
	local := *c
	local.Host.DataDir = dir
	if _, err := copyStores(ctx, cmd, &local, storage.Files(dir), db, migrate.Options{}); err != nil {
		return fmt.Errorf("restore: into the database %s: %w", db.Where(), err)
	}
	p.finish(cmd, "the database "+db.Where())
	return nil
}

// databaseEmpty fails unless no table of the database's schema (goose's
// record of migrations aside) holds a row.
func databaseEmpty(ctx context.Context, db *storage.Storage) error {
	pool := db.DB().Pool
	rows, err := pool.Query(ctx, `SELECT quote_ident(table_name) FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> $1 ORDER BY 1`, pgdb.VersionTable)
	if err != nil {
		return fmt.Errorf("restore: list the database's tables: %w", err)
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range tables {
		var any bool
		if err := pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM "+t+")").Scan(&any); err != nil {
			return fmt.Errorf("restore: %s: %w", t, err)
		}
		if any {
			return fmt.Errorf("restore: the database %s is not empty (table %s has rows): dsh restore fills only an empty database", db.Where(), t)
		}
	}
	return nil
}
