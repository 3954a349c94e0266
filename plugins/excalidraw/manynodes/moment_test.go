package manynodes

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// dsh backup is one moment across boards, on files and on the database:
// an agent saves board alpha and then board beta, each with the same
// counter, round after round, while backups run beside the node (their
// own processes), on files with a hundred boards nobody writes between
// the two in name order; every backup, restored, holds a pair the agent left at
// some instant: beta's counter never ahead of alpha's, alpha's at most
// one ahead. On files, a backup with too few descriptors for the moment
// still works (board by board) and says so.
func TestBackupIsOneMoment(t *testing.T) {
	for _, kind := range []string{"fs", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			c := newCluster(t, 0)
			var node *dshtest.Process
			if kind == "fs" {
				node = dshtest.Start(t, c.bin, fsYAML)
			} else {
				node = c.start()
			}
			out, err := c.cli(node, "token", "create", "ci")
			if err != nil {
				t.Fatalf("token create: %v %s", err, out)
			}
			c.token = strings.TrimSpace(out)
			save := func(board string, x int) error {
				body := map[string]any{"scene": scene("r", x), "force": true}
				if st := c.callQuiet(node, http.MethodPut, "/scenes/"+board, body, nil); st != http.StatusOK {
					return fmt.Errorf("save %s = %d: %d", board, x, st)
				}
				return nil
			}
			// On files, boards between the two (in name order) that
			// nobody writes: a backup that took one board after another
			// would take them between alpha and beta. (The database's
			// copy is slow enough without them.)
			boards := []string{"alpha", "beta"}
			for i := range 100 {
				if kind != "fs" {
					break
				}
				boards = append(boards, fmt.Sprintf("alpha-%03d", i))
			}
			for _, board := range boards {
				if st := c.call(node, http.MethodPost, "/scenes", map[string]any{"name": board}, nil); st != http.StatusCreated {
					t.Fatalf("create %s: %d", board, st)
				}
				if err := save(board, 0); err != nil {
					t.Fatal(err)
				}
			}

			var rounds atomic.Int64
			var failed atomic.Value
			started, stop := make(chan struct{}), make(chan struct{})
			var once sync.Once
			var wg sync.WaitGroup
			wg.Go(func() {
				for x := 1; ; x++ {
					select {
					case <-stop:
						return
					default:
					}
					for _, board := range []string{"alpha", "beta"} {
						if err := save(board, x); err != nil {
							failed.Store(err)
							once.Do(func() { close(started) })
							return
						}
					}
					if rounds.Add(1) == 3 {
						once.Do(func() { close(started) })
					}
				}
			})
			<-started
			// Five on the database, whose history the fast agent makes
			// slower to copy with every backup: a board-by-board backup
			// fails every one of them.
			backups := 10
			if kind != "fs" {
				backups = 5
			}
			var archives []string
			for i := range backups {
				archive := filepath.Join(t.TempDir(), fmt.Sprintf("b%d.tar", i))
				if out, err := c.cli(node, "backup", archive); err != nil {
					t.Fatalf("backup: %v %s", err, out)
				}
				archives = append(archives, archive)
			}
			close(stop)
			wg.Wait()
			if err := failed.Load(); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d rounds of saves during %d backups", rounds.Load(), len(archives))
			if kind == "fs" {
				// Too few descriptors for a moment of 102 boards: the
				// backup still works, board by board, and says so.
				archive := filepath.Join(t.TempDir(), "few.tar")
				cmd := exec.Command("sh", "-c", `ulimit -n 256 && exec "$0" "$@"`, c.bin, "backup", archive, "--config", filepath.Join(node.Dir, "dsh.yaml"))
				out, err := cmd.CombinedOutput()
				if err != nil || !strings.Contains(string(out), "more than this process may hold open at once") {
					t.Errorf("backup with 256 descriptors: %v %s", err, out)
				}
				archives = append(archives, archive)
			}
			for i, archive := range archives {
				dir := filepath.Join(t.TempDir(), "data")
				if out, err := c.cli(node, "restore", archive, "--data", dir); err != nil {
					t.Fatalf("restore: %v %s", err, out)
				}
				drawings := filepath.Join(dir, "excalidraw", "drawings")
				a, b := counterOf(t, drawings, "alpha"), counterOf(t, drawings, "beta")
				if b > a || a > b+1 {
					t.Errorf("backup %d holds alpha at %d and beta at %d: no instant had both", i, a, b)
				}
			}
		})
	}
}

// counterOf is the x of the one rectangle of the board's restored file.
func counterOf(t *testing.T, drawings, board string) int {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(drawings, board+".excalidraw"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Elements []struct{ X int } `json:"elements"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || len(doc.Elements) != 1 {
		t.Fatalf("%s: %v %s", board, err, raw)
	}
	return doc.Elements[0].X
}
