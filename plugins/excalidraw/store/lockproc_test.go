package store

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// Without flock, a holder on this host is judged by its pid and, where the
// record has one, its process identity: a pid now used by a process with
// another start time is a dead holder (pid reuse), the same process is a
// live one, and a record from another boot or pid namespace cannot be
// checked (it waits for StaleLockAge).
func TestLockWithoutFlockJudgesPidWithItsStartTime(t *testing.T) {
	s := testStore(t, quickLocks)
	if s.procScope == "" || s.proc == "" {
		testenv.Missing(t, "no process identity on this system (no /proc)")
	}
	s.flock = func(int, int) error { return unix.ENOLCK }
	mustCreate(t, s, "a", 1, "one")
	parent := os.Getppid()
	parentStart, st := procStart(parent)
	if st != procRunning {
		testenv.Missing(t, fmt.Sprintf("cannot read the parent's start time (%v)", st))
	}
	rev := int64(1)
	for _, c := range []struct {
		name    string
		holder  *lockHolder
		reclaim bool
	}{
		{"same process", &lockHolder{PID: parent, Host: s.host, Proc: s.procScope + "/" + parentStart}, false},
		{"pid reused", &lockHolder{PID: parent, Host: s.host, Proc: s.procScope + "/1" + parentStart}, true},
		{"exited", &lockHolder{PID: deadPid(t), Host: s.host, Proc: s.procScope + "/" + parentStart}, true},
		{"another pid namespace", &lockHolder{PID: deadPid(t), Host: s.host, Proc: "other-boot:pid:[1]/5"}, false},
		{"unreadable identity", &lockHolder{PID: deadPid(t), Host: s.host, Proc: "garbage"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeLock(t, s, "a", c.holder, 0)
			_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: rev, Data: doc(1, c.name), Actor: ActorAgent})
			if !c.reclaim {
				wantCode(t, err, CodeSceneBusy)
				os.Remove(lockPathOf(s, "a"))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rev++
		})
	}
}

// This store's own record carries its identity, in the scope it judges by.
func TestLockRecordCarriesProcessIdentity(t *testing.T) {
	s := testStore(t)
	if s.proc == "" {
		testenv.Missing(t, "no process identity on this system (no /proc)")
	}
	start, st := procStart(os.Getpid())
	if st != procRunning || s.proc != s.procScope+"/"+start {
		t.Fatalf("identity %q, scope %q, start %q (%v)", s.proc, s.procScope, start, st)
	}
	if why := s.holderDead(&lockHolder{PID: os.Getpid(), Host: s.host, Proc: s.proc}); why != "" {
		t.Fatalf("judged itself dead: %s", why)
	}
}
