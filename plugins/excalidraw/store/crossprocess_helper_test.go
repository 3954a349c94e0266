package store

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// The test binary re-executes itself as a helper process when helperEnv is
// set (see TestMain). Modes:
//
//	exit      exit at once (to obtain the pid of a dead process)
//	holdlock  take scene $DSH_STORE_NAME's locks, print "locked", wait for EOF
//	writer    for each round number r read from stdin, Save with expected
//	          revision r+1 and print a helperReply line
const (
	helperEnv  = "DSH_STORE_HELPER"
	helperDir  = "DSH_STORE_DIR"
	helperName = "DSH_STORE_NAME"
	helperID   = "DSH_STORE_ID"
)

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
	s, err := Open(Options{Dir: os.Getenv(helperDir), Codec: jsonCodec{}})
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
	}
	return 2
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
