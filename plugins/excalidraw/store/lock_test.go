package store

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func lockPathOf(s *Store, name string) string {
	return filepath.Join(s.dir, metaDir, locksDir, lockFile(name))
}

// writeLock leaves a lock file as a holder would, with the given record
// (nil: an empty file, as if the creator died before writing) and age.
func writeLock(t *testing.T, s *Store, name string, h *lockHolder, age time.Duration) {
	t.Helper()
	var data []byte
	if h != nil {
		data, _ = json.Marshal(h)
	}
	p := lockPathOf(s, name)
	writeFile(t, p, data)
	old := time.Now().Add(-age)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
}

// holdFlock takes the flock of an existing lock file through a separate
// open file description, which conflicts with the store like another
// process would.
func holdFlock(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
}

func deadPid(t *testing.T) int {
	t.Helper()
	cmd := helperCmd(t, "exit", "", "", "")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func quickLocks(o *Options) { o.LockTimeout = 150 * time.Millisecond }

// Row 5, the real thing: a process holding the lock makes writers wait and
// fail with scene_busy; once it is killed, its lock file is reclaimed.
func TestLockOfKilledProcessIsReclaimed(t *testing.T) {
	s := testStore(t, quickLocks)
	mustCreate(t, s, "a", 1, "one")

	cmd := helperCmd(t, "holdlock", s.dir, "a", "")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "locked\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper said %q", line)
	}

	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "two"), Actor: ActorAgent})
	e := wantCode(t, err, CodeSceneBusy)
	if e.Details["holderPid"] != cmd.Process.Pid {
		t.Fatalf("details %v (helper pid %d)", e.Details, cmd.Process.Pid)
	}

	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Stat(lockPathOf(s, "a")); err != nil {
		t.Fatalf("killed holder should leave its lock file: %v", err)
	}
	mustSave(t, s, "a", 1, doc(1, "two"))
	if _, err := os.Stat(lockPathOf(s, "a")); !os.IsNotExist(err) {
		t.Fatalf("lock file not released: %v", err)
	}
}

// A lock file with a complete record and nobody holding its flock was left
// by a dead process: reclaimed at once, whatever its age or host.
func TestLockLeftByDeadProcessReclaimedAtOnce(t *testing.T) {
	s := testStore(t, quickLocks)
	mustCreate(t, s, "a", 1, "one")
	writeLock(t, s, "a", &lockHolder{PID: deadPid(t), Host: s.host, At: formatTime(time.Now())}, 0)
	mustSave(t, s, "a", 1, doc(1, "two"))
	writeLock(t, s, "a", &lockHolder{PID: 4242, Host: "elsewhere.invalid", At: formatTime(time.Now())}, 0)
	mustSave(t, s, "a", 2, doc(1, "three"))
}

// The 30 s rule, which is only for owners that cannot be checked: without
// flock, a lock file with no record (its creator died between create and
// write) is waited on until it is older than StaleLockAge, then reclaimed.
// (With flock such a file is reclaimed at once: see lockfree_test.go.)
func TestLockStaleAfterStaleLockAge(t *testing.T) {
	s := testStore(t, quickLocks)
	s.flock = func(int, int) error { return unix.ENOLCK }
	mustCreate(t, s, "a", 1, "one")

	writeLock(t, s, "a", nil, time.Second)
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "two"), Actor: ActorAgent})
	wantCode(t, err, CodeSceneBusy)

	writeLock(t, s, "a", nil, DefaultStaleLockAge+time.Second)
	mustSave(t, s, "a", 1, doc(1, "two"))
}

// A live lock (its flock is held) is never stolen, however old the file;
// reads do not wait for it.
func TestLiveLockTimesOutWithSceneBusy(t *testing.T) {
	s := testStore(t, quickLocks)
	mustCreate(t, s, "a", 1, "one")
	writeLock(t, s, "a", &lockHolder{PID: os.Getpid(), Host: s.host, At: "then"}, time.Hour)
	holdFlock(t, lockPathOf(s, "a"))
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "two"), Actor: ActorAgent})
	e := wantCode(t, err, CodeSceneBusy)
	if e.Details["holderHost"] != s.host || e.Details["waited"] != "150ms" {
		t.Fatalf("details %v", e.Details)
	}
	if sc, err := s.Read(bg, "a"); err != nil || sc.Revision != 1 {
		t.Fatalf("read under a live lock: %+v %v", sc, err)
	}
}

// Cancelling the context ends the wait early.
func TestLockWaitObservesContext(t *testing.T) {
	s := testStore(t, func(o *Options) { o.LockTimeout = time.Minute })
	mustCreate(t, s, "a", 1, "one")
	writeLock(t, s, "a", &lockHolder{PID: os.Getpid(), Host: s.host}, 0)
	holdFlock(t, lockPathOf(s, "a"))
	ctx, cancel := context.WithCancel(bg)
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := s.Save(ctx, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "two"), Actor: ActorAgent})
	wantCode(t, err, CodeSceneBusy)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cause %v", err)
	}
}

// On a filesystem without flock only the record and the age can be judged:
// a dead pid on this host is reclaimed at once, a live or foreign holder is
// waited on until StaleLockAge.
func TestLockWithoutFlock(t *testing.T) {
	s := testStore(t, quickLocks)
	s.flock = func(int, int) error { return unix.ENOLCK }
	mustCreate(t, s, "a", 1, "one")
	rev := int64(1)
	for _, c := range []struct {
		name    string
		holder  *lockHolder
		age     time.Duration
		reclaim bool
	}{
		{"dead pid here", &lockHolder{PID: deadPid(t), Host: s.host}, 0, true},
		{"live pid here", &lockHolder{PID: os.Getppid(), Host: s.host}, 0, false},
		{"foreign host", &lockHolder{PID: 1, Host: "elsewhere.invalid"}, 0, false},
		{"foreign host, old", &lockHolder{PID: 1, Host: "elsewhere.invalid"}, time.Minute, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeLock(t, s, "a", c.holder, c.age)
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

func TestLockFileIsRemovedAfterEachOperation(t *testing.T) {
	s := testStore(t)
	mustCreate(t, s, "a", 1, "one")
	mustSave(t, s, "a", 1, doc(1, "two"))
	s.Read(bg, "a")
	entries, _ := os.ReadDir(filepath.Join(s.dir, metaDir, locksDir))
	if len(entries) != 0 {
		t.Fatalf("locks left: %v", entries)
	}
}

func TestLockFileSymlinkRefused(t *testing.T) {
	s := testStore(t, quickLocks)
	mustCreate(t, s, "a", 1, "one")
	outside := filepath.Join(t.TempDir(), "victim")
	writeFile(t, outside, []byte("keep"))
	if err := os.Symlink(outside, lockPathOf(s, "a")); err != nil {
		t.Fatal(err)
	}
	_, err := s.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "two"), Actor: ActorAgent})
	wantCode(t, err, CodePermissionDenied)
	if got := readFile(t, outside); string(got) != "keep" {
		t.Fatal("symlink target touched")
	}
}

// Two stores in one process contend through the lock file like two
// processes (flock conflicts between separate opens); reads do not contend.
func TestLockExcludesSecondStoreInProcess(t *testing.T) {
	s1 := testStore(t, quickLocks)
	s2, err := Open(Options{Dir: s1.dir, Codec: jsonCodec{}, LockTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	mustCreate(t, s1, "a", 1, "one")
	tx, err := s1.begin(bg, "a")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s2.Save(bg, SaveRequest{Name: "a", ExpectedRevision: 1, Data: doc(1, "two"), Actor: ActorAgent})
	busy := CodeOf(err) == CodeSceneBusy
	if _, rerr := s2.Read(bg, "a"); rerr != nil {
		t.Errorf("read while the other store holds the lock: %v", rerr)
	}
	tx.end()
	if !busy {
		t.Fatalf("want scene_busy, got %v", err)
	}
	mustSave(t, s2, "a", 1, doc(1, "two"))
}
