package manynodes

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
)

// fsYAML is a one-machine node: everything in the data directory.
const fsYAML = `host:
  listen: 127.0.0.1:0
  dataDir: ./data
  log: {level: warn, format: json}
  http: {drainTimeout: 2s, shutdownTimeout: 5s}
plugins:
  - {id: excalidraw, name: excalidraw, config: {exports: {secret: "` + exportsSecret + `"}}}
`

// files that are not data: the host's runtime file and lock files.
func dataOnly(tree map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range tree {
		if strings.HasSuffix(k, ".lock") || strings.Contains(k, "runtime.json") || strings.HasPrefix(filepath.Base(k), ".") && strings.Contains(k, ".tmp-") {
			continue
		}
		if strings.HasPrefix(v, "d") { // directories come and go with their files
			continue
		}
		out[k] = v
	}
	return out
}

// fs → postgres → fs keeps every byte of every scene, its sidecar,
// journal and backups, and of the people, tokens and board metadata; a
// node on the database serves what was copied (the old token works, the
// history is there); running either copy again copies nothing.
func TestMigrateRoundTrip(t *testing.T) {
	c := newCluster(t, 0)

	// A machine with history: scenes saved several times, a person, a
	// bot, a board's file.
	one := dshtest.Start(t, c.bin, fsYAML)
	out, err := c.cli(one, "token", "create", "ci")
	if err != nil {
		t.Fatalf("token create: %v %s", err, out)
	}
	c.token = strings.TrimSpace(out)
	for _, name := range []string{"plan", "notes"} {
		if st := c.call(one, http.MethodPost, "/scenes", map[string]any{"name": name}, nil); st != http.StatusCreated && st != http.StatusOK {
			t.Fatalf("create %s: %d", name, st)
		}
		for r := int64(1); r <= 4; r++ {
			var ans saveAnswer
			if st := c.call(one, http.MethodPut, "/scenes/"+name, map[string]any{"scene": scene(fmt.Sprintf("%s-%d", name, r), int(r)), "expected_revision": r, "request_id": fmt.Sprintf("%s-r%d", name, r)}, &ans); st != http.StatusOK {
				t.Fatalf("save %s: %d %+v", name, st, ans)
			}
		}
	}
	if out, err := c.cli(one, "user", "add", "bob"); err != nil {
		t.Fatalf("user add: %v %s", err, out)
	}
	if out, err := c.cli(one, "token", "create", "bot", "--board", "plan", "--role", "viewer"); err != nil {
		t.Fatalf("connect token: %v %s", err, out)
	}
	req, _ := http.NewRequest(http.MethodPut, one.URL+"/files/rooms/plan/img1", strings.NewReader("picture bytes"))
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "image/png")
	if resp, err := c.http.Do(req); err != nil || resp.StatusCode >= 300 {
		t.Fatalf("PUT file: %v %v", resp, err)
	}
	one.Stop(syscall.SIGTERM)
	before := dataOnly(dshtest.Tree(t, filepath.Join(one.Dir, "data")))

	migrate := func(p *dshtest.Process, from, to string) string {
		t.Helper()
		out, err := c.cli(p, "store", "migrate", "--from", from, "--to", to)
		if err != nil {
			t.Fatalf("store migrate --from %s --to %s: %v\n%s", from, to, err, out)
		}
		return out
	}
	report := migrate(one, "fs", "postgres")
	for _, want := range []string{"scenes", "documents", "files"} {
		if !strings.Contains(report, want) {
			t.Fatalf("report lacks %s:\n%s", want, report)
		}
	}
	if again := migrate(one, "fs", "postgres"); !strings.Contains(again, "scenes     0       2") {
		t.Fatalf("a rerun copied something:\n%s", again)
	}

	// A node on the database serves the copy with the old credentials.
	pg := c.start()
	var head struct{ Revision int64 }
	if st := c.call(pg, http.MethodGet, "/scenes/plan", nil, &head); st != http.StatusOK || head.Revision != 5 {
		t.Fatalf("plan on the database node: %d revision %d", st, head.Revision)
	}
	var log struct {
		Entries []struct{ Revision int64 } `json:"entries"`
	}
	c.call(pg, http.MethodGet, "/scenes/plan/log?limit=50", nil, &log)
	if len(log.Entries) != 5 {
		t.Fatalf("plan's history on the database node: %d entries, want 5", len(log.Entries))
	}
	pg.Stop(syscall.SIGTERM)

	// Back into an empty data directory: the same bytes.
	back := dshtest.Start(t, c.bin, fsYAML)
	back.Stop(syscall.SIGTERM)
	if err := os.RemoveAll(filepath.Join(back.Dir, "data")); err != nil {
		t.Fatal(err)
	}
	migrate(back, "postgres", "fs")
	after := dataOnly(dshtest.Tree(t, filepath.Join(back.Dir, "data")))
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s differs after fs → postgres → fs (%d bytes, was %d)", k, len(after[k]), len(v))
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s appeared after the round trip", k)
		}
	}
	if again := migrate(back, "postgres", "fs"); !strings.Contains(again, "scenes     0       2") {
		t.Fatalf("a rerun into the files copied something:\n%s", again)
	}
}
