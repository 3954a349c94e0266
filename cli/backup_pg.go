package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/spf13/cobra"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/internal/migrate"
	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/plugins/storage"
)

// The database's side of backup and restore. `dsh backup` of a config on
// PostgreSQL first copies what the database keeps into a temporary data
// directory, as `dsh store migrate --from postgres --to fs` writes it
// (byte for byte, every row read as of one instant: snapshotOf), and
// archives that directory; `dsh restore` into such a config checks
// that the database holds nothing (or only part of the same archive, from
// an interrupted restore), extracts the archive into a temporary
// directory and copies it into the database. The archive is the same
// either way: one taken from the file store restores into a database and
// back.

// backupDatabase writes the archive of what c's database keeps, as it
// was at one instant.
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
	at, end, err := snapshotOf(ctx, db)
	if err != nil {
		return err
	}
	defer end()
	local := *c
	local.Host.DataDir = tmp
	if _, err := copyStores(ctx, cmd, &local, at, storage.Files(tmp), migrate.Options{}); err != nil {
		return fmt.Errorf("backup: reading the database %s: %w", db.Where(), err)
	}
	end()
	return runBackup(cmd, &local, file)
}

// restoreMarker is the state document a restore into a database writes
// before it copies anything and removes once all is copied (its data
// names the archive's SHA-256); a host does not start on a database
// that holds it (storage.Storage.CheckRestored).
const restoreMarker = storage.RestoreMarker

// restoreDatabase fills c's database, which must be empty, from the
// archive file, showing its progress. It marks the database first, so an
// interrupted restore is finished by running the same again: the copy
// leaves alone what is there already, and every scene is written in one
// transaction, whole or not at all.
func restoreDatabase(cmd *cobra.Command, c *dsh.LoadedConfig, file string) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := fileSHA256(file)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
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
	pool := db.DB().Pool
	var marked []byte
	err = pool.QueryRow(ctx, "SELECT data FROM state_docs WHERE name = $1", restoreMarker).Scan(&marked)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if err := databaseEmpty(ctx, db); err != nil {
			return err
		}
	case err != nil:
		return fmt.Errorf("restore: read the database %s: %w", db.Where(), err)
	default:
		var m struct{ Archive string }
		if json.Unmarshal(marked, &m) != nil || m.Archive != sum {
			return fmt.Errorf("restore: the database %s holds part of another archive, from a restore that was interrupted: "+
				"finish it with `dsh restore` of that archive, or empty the database to start again", db.Where())
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "finishing the interrupted restore of %s into %s\n", file, db.Where())
	}
	dir := filepath.Join(tmp, "data")
	p, err := restoreFiles(cmd, file, dir)
	if err != nil {
		return err
	}
	mark, _ := json.Marshal(map[string]string{"archive": sum, "startedAt": time.Now().UTC().Format(time.RFC3339)})
	if _, err := pool.Exec(ctx, `INSERT INTO state_docs (name, version, data) VALUES ($1, nextval('state_version'), $2)
		ON CONFLICT (name) DO NOTHING`, restoreMarker, mark); err != nil {
		return interruptedRestore(ctx, db, fmt.Errorf("mark the database: %w", err))
	}
	local := *c
	local.Host.DataDir = dir
	copied := newCounter(cmd, "copied into the database", "items")
	_, err = copyStores(ctx, cmd, &local, storage.Files(dir), db, migrate.Options{Progress: func(string, string, string) { copied.add(0) }})
	copied.clear()
	if err != nil {
		return interruptedRestore(ctx, db, err)
	}
	if _, err := pool.Exec(ctx, "DELETE FROM state_docs WHERE name = $1", restoreMarker); err != nil {
		return interruptedRestore(ctx, db, fmt.Errorf("unmark the database: %w", err))
	}
	p.finish(cmd, "the database "+db.Where())
	return nil
}

// interruptedRestore is err, which stopped a restore into db, saying how
// to finish it.
func interruptedRestore(ctx context.Context, db *storage.Storage, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("restore: interrupted while copying into the database %s: %w (run the same restore again to finish it)", db.Where(), err)
	}
	return fmt.Errorf("restore: into the database %s: %w (run the same restore again once it is fixed: it finishes what was begun)", db.Where(), err)
}

// fileSHA256 is the SHA-256 of file's bytes, in hex.
func fileSHA256(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
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
