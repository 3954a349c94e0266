package manynodes

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

// dsh backup and dsh restore on the database: a machine's data, moved
// into a database, is backed up from a node that keeps serving; the
// archive restores into an empty data directory byte for byte as the
// machine had it, and into an empty second database, where a node serves
// the same boards, history and token; a database that holds anything is
// refused.
func TestBackupRestorePostgres(t *testing.T) {
	c := newCluster(t, 0)
	one := dshtest.Start(t, c.bin, fsYAML)
	out, err := c.cli(one, "token", "create", "ci")
	if err != nil {
		t.Fatalf("token create: %v %s", err, out)
	}
	c.token = strings.TrimSpace(out)
	for _, name := range []string{"plan", "notes"} {
		if st := c.call(one, http.MethodPost, "/scenes", map[string]any{"name": name}, nil); st != http.StatusCreated {
			t.Fatalf("create %s: %d", name, st)
		}
		for r := int64(1); r <= 3; r++ {
			body := map[string]any{"scene": scene(fmt.Sprintf("%s-%d", name, r), int(r)), "expected_revision": r, "request_id": fmt.Sprintf("%s-r%d", name, r)}
			if st := c.call(one, http.MethodPut, "/scenes/"+name, body, nil); st != http.StatusOK {
				t.Fatalf("save %s: %d", name, st)
			}
		}
	}
	if out, err := c.cli(one, "user", "add", "bob"); err != nil {
		t.Fatalf("user add: %v %s", err, out)
	}
	one.Stop(syscall.SIGTERM)
	before := dataOnly(dshtest.Tree(t, filepath.Join(one.Dir, "data")))
	if out, err := c.cli(one, "store", "migrate", "--from", "fs", "--to", "postgres"); err != nil {
		t.Fatalf("store migrate: %v %s", err, out)
	}

	pg := c.start()
	archive := filepath.Join(t.TempDir(), "pg.tar.gz")
	if out, err := c.cli(pg, "backup", archive); err != nil || !strings.HasPrefix(out, "backed up ") {
		t.Fatalf("backup from the database: %v %s", err, out)
	}
	restored := filepath.Join(t.TempDir(), "data")
	if out, err := c.cli(pg, "restore", archive, "--data", restored); err != nil {
		t.Fatalf("restore into a directory: %v %s", err, out)
	}
	sameData(t, before, dataOnly(dshtest.Tree(t, restored)))

	// Into an empty second database, where a node serves it.
	dsn2 := pgtest.DSN(t)
	cfgDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(cfgDir, "dsh.yaml"), []byte(nodeYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	onDB2 := func(args ...string) (string, error) {
		cmd := exec.Command(c.bin, append(args, "--config", filepath.Join(cfgDir, "dsh.yaml"))...)
		cmd.Env = append(os.Environ(), "DSH_STORE_DSN="+dsn2)
		var b bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, &b
		err := cmd.Run()
		return b.String(), err
	}
	if out, err := onDB2("restore", archive); err != nil || !strings.HasPrefix(out, "restored ") {
		t.Fatalf("restore into an empty database: %v %s", err, out)
	}
	if out, err := onDB2("restore", archive); err == nil || !strings.Contains(out, "not empty") {
		t.Fatalf("restore into a database that holds data: %v %s", err, out)
	}
	node := dshtest.Start(t, c.bin, nodeYAML, "DSH_STORE_DSN="+dsn2)
	c.awaitReady(node)
	for _, name := range []string{"plan", "notes"} {
		var was, is struct {
			Entries []struct{ Revision int64 } `json:"entries"`
		}
		c.call(pg, http.MethodGet, "/scenes/"+name+"/log?limit=50", nil, &was)
		if st := c.call(node, http.MethodGet, "/scenes/"+name+"/log?limit=50", nil, &is); st != http.StatusOK || len(is.Entries) != 4 || fmt.Sprint(was) != fmt.Sprint(is) {
			t.Errorf("%s's history on the restored database (token ci): %d %v, was %v", name, st, is, was)
		}
	}
	node.Stop(syscall.SIGTERM)

	// Its backup is the machine's again.
	again := filepath.Join(t.TempDir(), "again.tar")
	if out, err := onDB2("backup", again); err != nil {
		t.Fatalf("backup of the restored database: %v %s", err, out)
	}
	back := filepath.Join(t.TempDir(), "data")
	if out, err := onDB2("restore", again, "--data", back); err != nil {
		t.Fatalf("restore: %v %s", err, out)
	}
	sameData(t, before, dataOnly(dshtest.Tree(t, back)))
}

// sameData fails unless two data trees hold the same files, byte for byte.
func sameData(t *testing.T, want, got map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s differs (%d bytes, was %d)", k, len(got[k]), len(v))
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s appeared", k)
		}
	}
}
