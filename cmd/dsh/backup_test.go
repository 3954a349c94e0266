package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/dshtest"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// A running host's boards (with history), people and tokens go through
// dsh backup and dsh restore into an empty directory: a backup of the
// restored directory holds the same files byte for byte, every scene's
// file, sidecar and journal agree although a board was being saved all
// through the backup, and a host started on it serves the same boards
// and history and takes the same token.
func TestBackupRestoreRoundTrip(t *testing.T) {
	cfg := writeConfigWith(t, "  - {id: excalidraw, name: excalidraw}\n")
	info, _ := serve(t, cfg)
	c := browser(t)
	api := func(base, token, method, path, body string) (int, []byte) {
		t.Helper()
		resp, b := dshtest.Send(t, c, method, base+"/dsh-excalidraw/api"+path, body,
			"Authorization", "Bearer "+token, "Content-Type", "application/json")
		return resp.StatusCode, b
	}
	save := func(board string, x int) {
		t.Helper()
		doc := fmt.Sprintf(`{"type":"excalidraw","version":2,"elements":[{"type":"rectangle","id":"r","x":%d,"y":0,"width":10,"height":10}],"appState":{}}`, x)
		if code, b := api(info.URL, info.Token, http.MethodPut, "/scenes/"+board, `{"scene":`+doc+`,"force":true}`); code != http.StatusOK {
			t.Errorf("save %s: %d %s", board, code, b)
		}
	}
	for _, board := range []string{"plan", "notes", "busy"} {
		if code, b := api(info.URL, info.Token, http.MethodPost, "/scenes", `{"name":"`+board+`"}`); code != http.StatusCreated {
			t.Fatalf("create %s: %d %s", board, code, b)
		}
		for x := range 3 {
			save(board, x)
		}
	}
	picture := func(base, token string) (int, []byte) {
		resp, b := dshtest.Send(t, c, http.MethodGet, base+"/files/rooms/plan/pic.bin", "", "Authorization", "Bearer "+token)
		return resp.StatusCode, b
	}
	if resp, b := dshtest.Send(t, c, http.MethodPut, info.URL+"/files/rooms/plan/pic.bin", "picture bytes",
		"Authorization", "Bearer "+info.Token, "Content-Type", "application/octet-stream"); resp.StatusCode != http.StatusCreated {
		t.Fatalf("put a picture: %d %s", resp.StatusCode, b)
	}
	if _, err := userCmd(t, "add", "erin", "--config", cfg); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, context.Background(), "token", "create", "my-agent", "--board", "plan", "--role", "viewer", "--config", cfg)
	if err != nil {
		t.Fatal(err)
	}
	bot := strings.TrimSpace(out)

	// Saves of "busy" run all through the backup.
	var saves atomic.Int64
	started := make(chan struct{})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for x := 10; ; x++ {
			select {
			case <-stop:
				return
			default:
			}
			save("busy", x)
			if saves.Add(1) == 3 {
				close(started)
			}
		}
	}()
	<-started
	var archives []string
	for i := range 8 {
		archive := filepath.Join(t.TempDir(), fmt.Sprintf("dsh%d.tar.gz", i))
		out, err = run(t, context.Background(), "backup", archive, "--config", cfg)
		if err != nil || !strings.HasPrefix(out, "backed up ") || !strings.Contains(out, archive) {
			t.Fatalf("backup: %v %q", err, out)
		}
		archives = append(archives, archive)
	}
	close(stop)
	wg.Wait()
	t.Logf("%d saves of busy during %d backups", saves.Load(), len(archives))
	for _, a := range archives[1:] {
		dir := filepath.Join(t.TempDir(), "data")
		if _, err := run(t, context.Background(), "restore", a, "--data", dir); err != nil {
			t.Fatal(err)
		}
		checkScenes(t, filepath.Join(dir, "excalidraw", "drawings"), "plan", "notes", "busy")
	}
	archive := archives[0]

	cfg2 := writeConfigWith(t, "  - {id: excalidraw, name: excalidraw}\n")
	dir2 := dataDirOf(cfg2)
	if out, err := run(t, context.Background(), "restore", archive, "--data", dir2); err != nil || !strings.HasPrefix(out, "restored ") {
		t.Fatalf("restore: %v %q", err, out)
	}
	checkScenes(t, filepath.Join(dir2, "excalidraw", "drawings"), "plan", "notes", "busy")

	again := filepath.Join(t.TempDir(), "again.tar")
	if _, err := run(t, context.Background(), "backup", again, "--config", cfg2); err != nil {
		t.Fatal(err)
	}
	first, second := archiveFiles(t, archive), archiveFiles(t, again)
	if len(first) == 0 || !equalMaps(first, second) {
		t.Fatalf("the backup of the restored directory differs from the original's:\n%v\n%v", first, second)
	}
	for _, want := range []string{"tokens", "accounts", "excalidraw/drawings/plan.excalidraw", "journal/plan.journal", "backups/plan.2.excalidraw",
		"excalidraw/files/rooms/plan/"} {
		if !hasPathLike(first, want) {
			t.Errorf("the archive has no %s: %v", want, first)
		}
	}

	for p := range first {
		if strings.HasSuffix(p, ".lock") || strings.Contains(p, ".tmp-") {
			t.Errorf("the archive holds %s, a lock or temp file", p)
		}
	}

	info2, _ := serve(t, cfg2)
	for _, board := range []string{"plan", "notes"} {
		for _, path := range []string{"/scenes/" + board, "/scenes/" + board + "/log"} {
			code, was := api(info.URL, info.Token, http.MethodGet, path, "")
			code2, is := api(info2.URL, info2.Token, http.MethodGet, path, "")
			if code != http.StatusOK || code2 != http.StatusOK || !bytes.Equal(was, is) {
				t.Errorf("GET %s: %d %s\nrestored: %d %s", path, code, was, code2, is)
			}
		}
	}
	if code, b := picture(info2.URL, info2.Token); code != http.StatusOK || string(b) != "picture bytes" {
		t.Errorf("the picture on the restored host: %d %q", code, b)
	}
	if code, b := api(info2.URL, bot, http.MethodGet, "/scenes/plan", ""); code != http.StatusOK {
		t.Errorf("the backed-up token on the restored host: %d %s", code, b)
	}
	if out, err := userCmd(t, "ls", "--config", cfg2); err != nil || !strings.Contains(out, "erin") {
		t.Errorf("user ls on the restored host: %v\n%s", err, out)
	}

	// An interrupted backup or restore leaves nothing behind, and the
	// same command run again works.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	scratch := t.TempDir()
	file := filepath.Join(scratch, "again.tar.gz")
	if _, err := run(t, cancelled, "backup", file, "--config", cfg); err == nil {
		t.Error("an interrupted backup succeeded")
	}
	if names := dirNames(t, scratch); len(names) != 0 {
		t.Errorf("an interrupted backup left %v", names)
	}
	if _, err := run(t, context.Background(), "backup", file, "--config", cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, cancelled, "restore", file, "--data", filepath.Join(scratch, "r")); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("an interrupted restore: %v", err)
	}
	if names := dirNames(t, scratch); len(names) != 1 {
		t.Errorf("an interrupted restore left %v", names)
	}
	if _, err := run(t, context.Background(), "restore", file, "--data", filepath.Join(scratch, "r")); err != nil {
		t.Error(err)
	}

	// A directory that holds anything is refused and left as it was.
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "keep"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, context.Background(), "restore", archive, "--data", full); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("restore into a non-empty directory: %v", err)
	}
	if names := dirNames(t, full); len(names) != 1 || names[0] != "keep" {
		t.Errorf("the refused directory holds %v", names)
	}

	// One changed byte in a board fails the archive's sums; nothing stays.
	raw, err := os.ReadFile(again)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(raw, []byte(`"rectangle"`))
	if i < 0 {
		t.Fatal("no board in the archive")
	}
	raw[i+1] = 'R'
	tampered := filepath.Join(t.TempDir(), "tampered.tar")
	if err := os.WriteFile(tampered, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty")
	if _, err := run(t, context.Background(), "restore", tampered, "--data", empty); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("restore of a tampered archive: %v", err)
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("the refused restore left %s: %v", empty, err)
	}
}

// An archive that names a path outside the directory, or holds a link,
// is refused, and nothing is written anywhere.
func TestRestoreRefusesUnsafeEntries(t *testing.T) {
	for _, c := range []struct {
		name string
		hdr  tar.Header
	}{
		{"dot-dot", tar.Header{Typeflag: tar.TypeReg, Name: "../evil", Size: 4}},
		{"nested dot-dot", tar.Header{Typeflag: tar.TypeReg, Name: "a/../../evil", Size: 4}},
		{"absolute", tar.Header{Typeflag: tar.TypeReg, Name: "/tmp/evil", Size: 4}},
		{"symlink", tar.Header{Typeflag: tar.TypeSymlink, Name: "evil", Linkname: "/etc"}},
		{"hard link", tar.Header{Typeflag: tar.TypeLink, Name: "evil", Linkname: "tokens.json"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			var buf bytes.Buffer
			tw := tar.NewWriter(&buf)
			header := []byte(`{"format":"dsh-backup@1"}`)
			writeEntry(t, tw, &tar.Header{Typeflag: tar.TypeReg, Name: "dsh-backup.json", Size: int64(len(header))}, header)
			var body []byte
			if c.hdr.Size > 0 {
				body = []byte("evil")
			}
			writeEntry(t, tw, &c.hdr, body)
			sum := sha256.Sum256(body)
			m := []byte(hex.EncodeToString(sum[:]) + "  " + c.hdr.Name + "\n")
			writeEntry(t, tw, &tar.Header{Typeflag: tar.TypeReg, Name: "dsh-backup.sha256", Size: int64(len(m))}, m)
			if err := tw.Close(); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(base, "a.tar")
			if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(base, "in", "data")
			if _, err := run(t, context.Background(), "restore", file, "--data", target); err == nil {
				t.Fatal("restored")
			}
			if names := dirNames(t, base); len(names) != 2 || names[0] != "a.tar" || names[1] != "in" {
				t.Errorf("the base holds %v", names)
			}
			if names := dirNames(t, filepath.Join(base, "in")); len(names) != 0 {
				t.Errorf("the target's parent holds %v", names)
			}
		})
	}
}

func writeEntry(t *testing.T, tw *tar.Writer, h *tar.Header, body []byte) {
	t.Helper()
	if err := tw.WriteHeader(h); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(body); err != nil {
		t.Fatal(err)
	}
}

// checkScenes opens the store on dir and wants each scene's file to be
// what its sidecar says and its journal to end at the sidecar's
// revision.
func checkScenes(t *testing.T, dir string, names ...string) {
	t.Helper()
	s, err := store.Open(store.Options{Dir: dir, Codec: scene.Codec{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name+".excalidraw"))
		if err != nil {
			t.Fatal(err)
		}
		side, err := os.ReadFile(filepath.Join(dir, store.MetaDir, name+store.SidecarExt))
		if err != nil {
			t.Fatal(err)
		}
		var sc struct {
			Revision   int64  `json:"revision"`
			SHA256     string `json:"sha256"`
			ByteLength int64  `json:"byteLength"`
		}
		if err := json.Unmarshal(side, &sc); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if sc.SHA256 != hex.EncodeToString(sum[:]) || sc.ByteLength != int64(len(data)) {
			t.Errorf("%s: the sidecar (revision %d) does not describe the file", name, sc.Revision)
		}
		page, err := s.Log(context.Background(), store.LogQuery{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Entries) == 0 || page.Entries[0].Revision != sc.Revision || page.Revision != sc.Revision {
			t.Errorf("%s: the journal does not end at the sidecar's revision %d: %+v", name, sc.Revision, page)
		}
	}
}

// archiveFiles is the path → SHA-256 of every file a backup archive
// holds (its header and manifest left out).
func archiveFiles(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(file, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = gz
	}
	out := map[string]string{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(h.Name, "dsh-backup.") {
			continue
		}
		sum := sha256.New()
		if _, err := io.Copy(sum, tr); err != nil {
			t.Fatal(err)
		}
		out[h.Name] = hex.EncodeToString(sum.Sum(nil))
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func hasPathLike(m map[string]string, part string) bool {
	for k := range m {
		if strings.Contains(k, part) {
			return true
		}
	}
	return false
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
