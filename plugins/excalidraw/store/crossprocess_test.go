package store

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Two OS processes write the same scene with the same expected revision,
// round after round. Each round: exactly one wins and the other gets
// revision_conflict; the file on disk parses and matches its sidecar; and at
// the end every revision a process was told it committed is in the history
// (the scene file for the last one, backups for the rest), byte for byte.
func TestTwoProcessesSameExpectedRevision(t *testing.T) {
	rounds := 50
	if testing.Short() {
		rounds = 10
	}
	s := testStore(t)
	mustCreate(t, s, "race", 1, "start")
	s.Close()

	type writer struct {
		cmd   *exec.Cmd
		stdin io.WriteCloser
		out   *json.Decoder
	}
	writers := make([]*writer, 2)
	for i := range writers {
		cmd := helperCmd(t, "writer", s.dir, "race", fmt.Sprint("p", i))
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		writers[i] = &writer{cmd: cmd, stdin: stdin, out: json.NewDecoder(bufio.NewReader(stdout))}
	}
	defer func() {
		for _, w := range writers {
			w.stdin.Close()
			if err := w.cmd.Wait(); err != nil {
				t.Errorf("writer: %v", err)
			}
		}
	}()

	acked := map[int64]string{1: sha256Hex(doc(1, "start"))}
	for r := range rounds {
		for _, w := range writers {
			fmt.Fprintln(w.stdin, r)
		}
		var wins int
		for i, w := range writers {
			var rep helperReply
			if err := w.out.Decode(&rep); err != nil {
				t.Fatalf("round %d writer %d: %v", r, i, err)
			}
			switch {
			case rep.OK:
				wins++
				if rep.Revision != int64(r)+2 {
					t.Fatalf("round %d: committed revision %d", r, rep.Revision)
				}
				acked[rep.Revision] = rep.SHA256
			case rep.Code == CodeRevisionConflict:
				if rep.CurrentRevision != int64(r)+2 {
					t.Fatalf("round %d: conflict reports revision %d", r, rep.CurrentRevision)
				}
			default:
				t.Fatalf("round %d writer %d: %s", r, i, rep.Error)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d winners", r, wins)
		}
		checkOnDisk(t, s, "race", int64(r)+2, acked[int64(r)+2])
	}

	final := int64(rounds) + 1
	for rev, sha := range acked {
		path := backupPathOf(s, "race", rev)
		if rev == final {
			path = scenePathOf(s, "race")
		}
		if got := sha256Hex(readFile(t, path)); got != sha {
			t.Fatalf("acknowledged revision %d lost: %s has %s, want %s", rev, path, got, sha)
		}
	}
	if len(acked) != rounds+1 {
		t.Fatalf("%d acknowledged revisions", len(acked))
	}
}

// checkOnDisk reads the scene and sidecar directly (not through a store) and
// checks they agree, parse, and are at the acknowledged revision.
func checkOnDisk(t *testing.T, s *Store, name string, rev int64, sha string) {
	t.Helper()
	data := readFile(t, scenePathOf(s, name))
	if _, err := (jsonCodec{}).Inspect(data); err != nil {
		t.Fatalf("scene corrupt at revision %d: %v", rev, err)
	}
	side := readSidecarFile(t, s, name)
	if side.Revision != rev || side.SHA256 != sha || sha256Hex(data) != sha || side.ByteLength != int64(len(data)) {
		t.Fatalf("revision %d: sidecar %+v, file sha %s, acknowledged %s", rev, side, sha256Hex(data), sha)
	}
	if entries, _ := os.ReadDir(filepath.Join(s.dir, metaDir, locksDir)); len(entries) != 0 {
		t.Fatalf("lock files left between rounds: %v", entries)
	}
}
