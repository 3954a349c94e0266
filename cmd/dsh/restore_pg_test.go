package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

// writePostgresConfig is a config of the excalidraw plugin whose store is
// the database dsn.
func writePostgresConfig(t *testing.T, dsn string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dsh.yaml")
	cfg := "host:\n  listen: 127.0.0.1:0\n  dataDir: ./state\n  log: {level: error, format: json}\n  store: {kind: postgres, dsn: '" + dsn +
		"'}\nplugins:\n  - {id: excalidraw, name: excalidraw}\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// countScenes is how many scenes the database dsn holds.
func countScenes(t *testing.T, dsn string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM scenes").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// dsh restore into a database interrupted half way through the copy
// leaves it marked: the same restore run again finishes it (before, it
// refused the database as not empty), one of another archive is refused,
// and the finished database backs up to the same files as the archive.
func TestRestoreIntoDatabaseInterruptedAndRerun(t *testing.T) {
	cfg, _, stop, _, boards := fourBoards(t)
	if _, err := userCmd(t, "add", "erin", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	stop()
	archive := filepath.Join(t.TempDir(), "dsh.tar.gz")
	other := filepath.Join(t.TempDir(), "other.tar.gz")
	for _, a := range []string{archive, other} {
		if _, err := run(t, context.Background(), "backup", a, "--config", cfg); err != nil {
			t.Fatal(err)
		}
	}
	dsn := pgtest.DSN(t)
	pg := writePostgresConfig(t, dsn)

	out, err := run(t, interruptAt(t, "copied into the database", 2), "restore", archive, "--config", pg)
	if err == nil || !strings.Contains(err.Error(), "interrupted") || out != "" {
		t.Fatalf("an interrupted restore: %v\n%s", err, out)
	}
	if n := countScenes(t, dsn); n == 0 || n == len(boards) {
		t.Fatalf("the interrupt came with %d of %d scenes copied, want it mid-copy", n, len(boards))
	}
	// No host starts on the half-restored database (one that started
	// serves until the bound ends, and returns no error).
	bound, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := run(t, bound, "serve", "--config", pg); err == nil || !strings.Contains(err.Error(), "restore that was interrupted") {
		t.Fatalf("dsh serve on a half-restored database: %v, want it refused", err)
	}
	if _, err := run(t, context.Background(), "restore", other, "--config", pg); err == nil || !strings.Contains(err.Error(), "another archive") {
		t.Fatalf("restoring another archive over the half-restored database: %v", err)
	}
	if out, err = run(t, context.Background(), "restore", archive, "--config", pg); err != nil || !strings.HasPrefix(out, "restored ") {
		t.Fatalf("the re-run: %v\n%s", err, out)
	}
	if n := countScenes(t, dsn); n != len(boards) {
		t.Fatalf("%d scenes after the re-run, want %d", n, len(boards))
	}
	if _, err := run(t, context.Background(), "restore", archive, "--config", pg); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("a restore into the finished database: %v, want it refused as not empty", err)
	}
	again := filepath.Join(t.TempDir(), "again.tar")
	if _, err := run(t, context.Background(), "backup", again, "--config", pg); err != nil {
		t.Fatal(err)
	}
	if was, is := archiveFiles(t, archive), archiveFiles(t, again); !equalMaps(was, is) {
		t.Fatalf("the restored database backs up otherwise than the archive:\n%v\n%v", was, is)
	}
}
