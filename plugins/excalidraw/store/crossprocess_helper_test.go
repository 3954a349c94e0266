package store

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// The test binary re-executes itself as a helper process when helperEnv is
// set (see TestMain). Modes:
//
//	exit      exit at once (to obtain the pid of a dead process)
//	holdlock  take scene $DSH_STORE_NAME's locks, print "locked", wait for EOF
//	writer    for each round number r read from stdin, Save with expected
//	          revision r+1 and print a helperReply line
//	diecreating  create scene $DSH_STORE_NAME's lock file the way a writer
//	          starts to, without writing its holder record (with
//	          $DSH_STORE_ID "flocked": after also taking its flock), print
//	          "created" and wait to be killed (or for EOF)
//	blockwrite   Save revision 2 (revDoc(2), request id blockwriteRequestID)
//	          of the scene, stopping just before the rename of the scene
//	          file ($DSH_STORE_ID "scene") or of the sidecar ("sidecar"),
//	          with the lock held: print "blocked", wait for EOF on stdin,
//	          finish, print a helperReply line
//	commits   from revision 1, Save revDoc(r+1) over revision r,
//	          $DSH_STORE_ID times, printing a helperReply line per commit
//	journalwriters  8 goroutines Update the journal crash test's scenes
//	          until killed, printing "ready" and then a journalAck line per
//	          acknowledged commit ($DSH_STORE_ID is the round; see
//	          journal_crash_test.go)
//	groupwriters  2 goroutines commit groups of 1-4 writes to scene "gw"
//	          until killed, printing "ready" and then a journalAck line per
//	          acknowledged write (see group_crash_test.go)
const (
	helperEnv  = "DSH_STORE_HELPER"
	helperDir  = "DSH_STORE_DIR"
	helperName = "DSH_STORE_NAME"
	helperID   = "DSH_STORE_ID"
)

// blockwriteRequestID is the request id of blockwrite's save.
const blockwriteRequestID = "blockwrite-2"

// helperReply is one round's outcome as a writer saw it.
type helperReply struct {
	Round           int    `json:"round"`
	OK              bool   `json:"ok"`
	Revision        int64  `json:"revision"`
	SHA256          string `json:"sha256"`
	Code            string `json:"code"`
	Error           string `json:"error"`
	CurrentRevision int64  `json:"currentRevision"`
}

func runHelper() int {
	mode := os.Getenv(helperEnv)
	if mode == "exit" {
		return 0
	}
	opts := Options{Dir: os.Getenv(helperDir), Codec: jsonCodec{}}
	switch mode {
	case "blockwrite":
		opts.FS = blockingFS(opts.Dir, os.Getenv(helperName), os.Getenv(helperID))
	case "journalwriters", "groupwriters":
		opts.Codec, opts.KeepBackups = journalCodec{}, -1
	}
	s, err := Open(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	name := os.Getenv(helperName)
	switch mode {
	case "holdlock":
		t, err := s.begin(context.Background(), name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin)
		t.end()
		return 0
	case "writer":
		return helperWriter(s, name, os.Getenv(helperID))
	case "diecreating":
		return helperDieCreating(s, name, os.Getenv(helperID) == "flocked")
	case "blockwrite":
		res, err := s.Save(context.Background(), SaveRequest{Name: name, ExpectedRevision: 1, Data: revDoc(2),
			Actor: ActorAgent, RequestID: blockwriteRequestID})
		return replyLine(json.NewEncoder(os.Stdout), 0, res, err)
	case "journalwriters":
		return helperJournalWriters(s, os.Getenv(helperID))
	case "groupwriters":
		return helperGroupWriters(s, os.Getenv(helperID))
	case "commits":
		n, err := strconv.Atoi(os.Getenv(helperID))
		if err != nil {
			return 3
		}
		out := json.NewEncoder(os.Stdout)
		for r := 1; r <= n; r++ {
			res, err := s.Save(context.Background(), SaveRequest{Name: name, ExpectedRevision: int64(r),
				Data: revDoc(int64(r) + 1), Actor: ActorAgent})
			if code := replyLine(out, r, res, err); code != 0 || err != nil {
				return max(code, 5)
			}
		}
		return 0
	}
	return 2
}

// replyLine prints one helperReply for a Save's outcome.
func replyLine(out *json.Encoder, round int, res *Result, err error) int {
	reply := helperReply{Round: round, OK: err == nil}
	if err == nil {
		reply.Revision, reply.SHA256 = res.Revision, res.SHA256
	} else {
		reply.Code, reply.Error = CodeOf(err), err.Error()
	}
	if out.Encode(reply) != nil {
		return 4
	}
	return 0
}

// revDoc is the document the cross-process read tests give revision rev:
// its bytes name the revision, so a reader can tell whether the bytes it got
// belong to the revision it was told.
func revDoc(rev int64) []byte { return doc(1+int(rev%4), fmt.Sprintf("revision-%d", rev)) }

// helperDieCreating does the first step (or two) of taking a lock, then
// waits to be killed: the state a writer killed at that point leaves.
func helperDieCreating(s *Store, name string, flocked bool) int {
	dirs, err := s.openMetaDirs()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	f, err := s.fs.OpenFile(dirs.locks, lockFile(name), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if flocked {
		if err := s.flockFile(f, unix.LOCK_EX|unix.LOCK_NB); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	fmt.Println("created")
	io.Copy(io.Discard, os.Stdin) // the test kills it first; EOF means the test is gone
	return 0
}

// blockingFS stops the helper's save just before the rename of the scene
// file (at "scene") or of the sidecar (at "sidecar"): it prints "blocked"
// and waits for EOF on stdin.
func blockingFS(dir, name, at string) FS {
	dir, _ = filepath.Abs(dir)
	target := filepath.Join(dir, sceneFile(name))
	if at == "sidecar" {
		target = filepath.Join(dir, metaDir, sidecarFile(name))
	}
	ffs := newFaultFS()
	var once sync.Once
	ffs.set(func(op, p string) error {
		if op == "rename" && p == target {
			once.Do(func() {
				fmt.Println("blocked")
				io.Copy(io.Discard, os.Stdin)
			})
		}
		return nil
	})
	return ffs
}

func helperWriter(s *Store, name, id string) int {
	in := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		round, err := strconv.Atoi(in.Text())
		if err != nil {
			return 3
		}
		res, err := s.Save(context.Background(), SaveRequest{Name: name, ExpectedRevision: int64(round) + 1,
			Data: doc(1+round%5, fmt.Sprintf("%s-round-%d", id, round)), Actor: ActorAgent,
			RequestID: fmt.Sprintf("%s-%d", id, round)})
		reply := helperReply{Round: round, OK: err == nil}
		if err == nil {
			reply.Revision, reply.SHA256 = res.Revision, res.SHA256
		} else {
			reply.Code, reply.Error = CodeOf(err), err.Error()
			if se, ok := err.(*Error); ok {
				reply.CurrentRevision, _ = se.Details["currentRevision"].(int64)
			}
		}
		if err := out.Encode(reply); err != nil {
			return 4
		}
	}
	return 0
}

// helperCmd prepares a helper process of the given mode.
func helperCmd(t testing.TB, mode, dir, name, id string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperDir+"="+dir, helperName+"="+name, helperID+"="+id)
	cmd.Stderr = os.Stderr
	return cmd
}
