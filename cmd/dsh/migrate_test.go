package main

import (
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

// pgtestM runs the tests through pgtest.Main, so goleak checks what is
// left once the throwaway PostgreSQL has stopped.
type pgtestM struct{ m *testing.M }

func (p pgtestM) Run() int { return pgtest.Main(p.m) }

// dsh store migrate off a terminal ends with one summary line on standard
// output that counts every item of its table; an interrupted migrate
// fails, and running it again copies everything.
func TestMigrateSummaryAndInterrupt(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: excalidraw, name: excalidraw}\n")
	info, stop := serve(t, cfg)
	c := browser(t)
	for _, board := range []string{"plan", "notes"} {
		for i, body := range []string{`{"name":"` + board + `"}`, `{"scene":{"type":"excalidraw","version":2,"elements":[],"appState":{}},"force":true}`} {
			method, path := http.MethodPost, "/scenes"
			if i > 0 {
				method, path = http.MethodPut, "/scenes/"+board
			}
			if resp, b := dshtest.Send(t, c, method, info.URL+"/dsh-excalidraw/api"+path, body,
				"Authorization", "Bearer "+info.Token, "Content-Type", "application/json"); resp.StatusCode >= 300 {
				t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
			}
		}
	}
	if _, err := userCmd(t, "add", "erin", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	stop()
	dsn := pgtest.DSN(t)
	migrate := func(ctx context.Context) (string, error) {
		return run(t, ctx, "store", "migrate", "--from", "fs", "--to", "postgres", "--dsn", dsn, "--config", cfg)
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if out, err := migrate(cancelled); err == nil || !strings.Contains(err.Error(), "interrupted") || strings.Contains(out, "migrated") {
		t.Fatalf("an interrupted migrate: %v\n%s", err, out)
	}

	summary := regexp.MustCompile(`(?m)^migrated (\d+) items in \S+: fs → postgres \(`)
	row := regexp.MustCompile(`(?m)^(\w+)\s+(\d+)\s+(\d+)\s+\S+$`)
	for round, wantCopied := range []bool{true, false} {
		out, err := migrate(context.Background())
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, out)
		}
		m := summary.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("round %d: no summary line:\n%s", round, out)
		}
		total, copied := 0, 0
		for _, r := range row.FindAllStringSubmatch(out, -1) {
			cp, _ := strconv.Atoi(r[2])
			same, _ := strconv.Atoi(r[3])
			total += cp + same
			copied += cp
			if r[1] == "scenes" && cp+same != 2 {
				t.Errorf("round %d: %d scenes, want 2\n%s", round, cp+same, out)
			}
		}
		if m[1] != strconv.Itoa(total) || total < 4 {
			t.Errorf("round %d: the summary says %s items, the table %d\n%s", round, m[1], total, out)
		}
		if (copied > 0) != wantCopied {
			t.Errorf("round %d: copied %d (want copies: %v)\n%s", round, copied, wantCopied, out)
		}
	}
}

// dsh store migrate interrupted half way through the scenes leaves those
// it copied and says it was interrupted; run again it copies the rest,
// finds the others unchanged, and leaves the database as one
// uninterrupted migrate does: both back up to the same files.
func TestMigrateInterruptedMidCopyAndRerun(t *testing.T) {
	cfg, _, stop, _, boards := fourBoards(t)
	if _, err := userCmd(t, "add", "erin", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	stop()
	migrate := func(ctx context.Context, dsn string) (string, error) {
		return run(t, ctx, "store", "migrate", "--from", "fs", "--to", "postgres", "--dsn", dsn, "--config", cfg)
	}
	row := regexp.MustCompile(`(?m)^(\w+)\s+(\d+)\s+(\d+)\s+\S+$`)
	table := func(out string) map[string][2]int {
		m := map[string][2]int{}
		for _, r := range row.FindAllStringSubmatch(out, -1) {
			cp, _ := strconv.Atoi(r[2])
			same, _ := strconv.Atoi(r[3])
			m[r[1]] = [2]int{cp, same}
		}
		return m
	}

	whole := pgtest.DSN(t)
	out, err := migrate(context.Background(), whole)
	if err != nil {
		t.Fatalf("an uninterrupted migrate: %v\n%s", err, out)
	}
	want := table(out)

	cut := pgtest.DSN(t)
	out, err = migrate(interruptAt(t, "migrated", 2), cut)
	if err == nil || !strings.Contains(err.Error(), "interrupted") || strings.Contains(out, "migrated") {
		t.Fatalf("an interrupted migrate: %v\n%s", err, out)
	}
	if n := countScenes(t, cut); n != 2 {
		t.Fatalf("the interrupt came with %d of %d scenes copied, want 2", n, len(boards))
	}
	if out, err = migrate(context.Background(), cut); err != nil {
		t.Fatalf("the re-run: %v\n%s", err, out)
	}
	got := table(out)
	if got["scenes"] != [2]int{2, 2} {
		t.Errorf("the re-run's scenes: %v copied, unchanged; want 2 and 2\n%s", got["scenes"], out)
	}
	for kind, w := range want {
		if g := got[kind]; g[0]+g[1] != w[0]+w[1] {
			t.Errorf("%s: the re-run counts %d, an uninterrupted migrate %d\n%s", kind, g[0]+g[1], w[0]+w[1], out)
		}
	}
	backups := map[string]map[string]string{}
	for name, dsn := range map[string]string{"whole": whole, "cut": cut} {
		file := filepath.Join(t.TempDir(), name+".tar")
		if _, err := run(t, context.Background(), "backup", file, "--config", writePostgresConfig(t, dsn)); err != nil {
			t.Fatal(err)
		}
		backups[name] = archiveFiles(t, file)
	}
	if !equalMaps(backups["whole"], backups["cut"]) || len(backups["whole"]) == 0 {
		t.Fatalf("the interrupted and re-run migrate left another database than an uninterrupted one:\n%v\n%v", backups["whole"], backups["cut"])
	}
}
