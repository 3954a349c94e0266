package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests are about what a dead or a busy writer may cost others: a
// lock file whose holder is provably dead is reclaimed at once, and reads
// never wait for the write lock at all. The stores use a 20 s lock timeout
// (and the default 30 s StaleLockAge) while each test gives itself a 5 s
// deadline, so an operation that waits for the lock fails the test instead
// of merely slowing it.

const testDeadline = 5 * time.Second

func patientLocks(o *Options) { o.LockTimeout = 20 * time.Second }

func deadline(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(bg, testDeadline)
	t.Cleanup(cancel)
	return ctx
}

// helperProc is a running helper process (see crossprocess_helper_test.go).
type helperProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

// startHelper starts a helper; it is killed at the end of the test if it is
// still running.
func startHelper(t *testing.T, mode, dir, name, id string) *helperProc {
	t.Helper()
	cmd := helperCmd(t, mode, dir, name, id)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &helperProc{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	t.Cleanup(func() {
		stdin.Close()
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return h
}

// expect reads the helper's next line and fails unless it is want.
func (h *helperProc) expect(t *testing.T, want string) {
	t.Helper()
	line, err := h.out.ReadString('\n')
	if line != want+"\n" {
		t.Fatalf("helper said %q (%v), want %q", line, err, want)
	}
}

// reply reads the helper's next helperReply line.
func (h *helperProc) reply(t *testing.T) helperReply {
	t.Helper()
	var rep helperReply
	line, err := h.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("helper reply: %v", err)
	}
	if err := json.Unmarshal(line, &rep); err != nil {
		t.Fatalf("helper reply %q: %v", line, err)
	}
	return rep
}

func (h *helperProc) kill(t *testing.T) {
	t.Helper()
	if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	h.cmd.Wait()
}

func createRev1(t *testing.T, s *Store, name string) {
	t.Helper()
	if _, err := s.Create(bg, CreateRequest{Name: name, Data: revDoc(1), Actor: ActorAgent}); err != nil {
		t.Fatal(err)
	}
}

// wantRevision fails unless sc is revision rev with revision rev's bytes and
// a hash and length that describe those bytes.
func wantRevision(t *testing.T, sc *Scene, err error, rev int64) {
	t.Helper()
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if sc.Revision != rev || !bytes.Equal(sc.Data, revDoc(rev)) || sc.SHA256 != sha256Hex(sc.Data) ||
		sc.ByteLength != int64(len(sc.Data)) {
		t.Fatalf("read %+v %s, want revision %d", sc.Meta, sc.Data, rev)
	}
}

// (a) A writer killed with SIGKILL just after creating its lock file, before
// writing its holder record (before or after taking the file's flock),
// leaves an empty lock file behind. Nobody holds its flock, which proves its
// creator is gone: another process reads at once (reads do not look at the
// lock) and writes at once (the file is reclaimed), rather than answering
// scene_busy for StaleLockAge.
func TestLockFileOfWriterKilledBeforeItsRecordIsReclaimedAtOnce(t *testing.T) {
	for _, stage := range []string{"created", "flocked"} {
		t.Run(stage, func(t *testing.T) {
			s := testStore(t, patientLocks)
			createRev1(t, s, "a")
			h := startHelper(t, "diecreating", s.dir, "a", stage)
			h.expect(t, "created")
			h.kill(t)
			if data, err := os.ReadFile(lockPathOf(s, "a")); err != nil || len(data) != 0 {
				t.Fatalf("the killed writer should leave an empty lock file: %q %v", data, err)
			}

			ctx := deadline(t)
			sc, err := s.Read(ctx, "a")
			wantRevision(t, sc, err, 1)
			res, err := s.Save(ctx, SaveRequest{Name: "a", ExpectedRevision: 1, Data: revDoc(2), Actor: ActorAgent})
			if err != nil || res.Revision != 2 {
				t.Fatalf("save after the killed writer: %+v %v", res, err)
			}
			if _, err := os.Stat(lockPathOf(s, "a")); !os.IsNotExist(err) {
				t.Fatalf("lock file not released: %v", err)
			}
			sc, err = s.Read(ctx, "a")
			wantRevision(t, sc, err, 2)
		})
	}
}

// (b) Another process holds the lock in the middle of a save: before it
// renames the new scene file into place, or after that and before the
// sidecar's rename (the scene file is then already revision 2's while the
// sidecar still says 1). Reads and listings succeed at once and report the
// last committed revision, whole; a write waits for its LockTimeout and
// fails with scene_busy naming the holder; once the holder finishes, reads
// see its revision.
func TestReadsDoNotWaitForALiveWriter(t *testing.T) {
	for _, stage := range []string{"scene", "sidecar"} {
		t.Run(stage, func(t *testing.T) {
			s := testStore(t, patientLocks)
			createRev1(t, s, "a")
			h := startHelper(t, "blockwrite", s.dir, "a", stage)
			h.expect(t, "blocked")
			onDisk := readFile(t, scenePathOf(s, "a"))
			if stage == "sidecar" && !bytes.Equal(onDisk, revDoc(2)) || stage == "scene" && !bytes.Equal(onDisk, revDoc(1)) {
				t.Fatalf("helper stopped at the wrong place: scene file %s", onDisk)
			}
			if side := readSidecarFile(t, s, "a"); side.Revision != 1 {
				t.Fatalf("helper stopped at the wrong place: sidecar %+v", side)
			}

			ctx := deadline(t)
			for range 3 {
				sc, err := s.Read(ctx, "a")
				wantRevision(t, sc, err, 1)
			}
			if list, err := s.List(ctx); err != nil || len(list) != 1 || list[0].Name != "a" {
				t.Fatalf("list %+v %v", list, err)
			}

			w, err := Open(Options{Dir: s.dir, Codec: jsonCodec{}, LockTimeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			_, err = w.Save(ctx, SaveRequest{Name: "a", ExpectedRevision: 1, Data: revDoc(3), Actor: ActorUI})
			if e := wantCode(t, err, CodeSceneBusy); e.Details["holderPid"] != h.cmd.Process.Pid {
				t.Fatalf("busy details %v (holder pid %d)", e.Details, h.cmd.Process.Pid)
			}

			h.stdin.Close()
			if rep := h.reply(t); !rep.OK || rep.Revision != 2 {
				t.Fatalf("helper's save: %+v", rep)
			}
			if err := h.cmd.Wait(); err != nil {
				t.Fatalf("helper: %v", err)
			}
			sc, err := s.Read(ctx, "a")
			wantRevision(t, sc, err, 2)
		})
	}
}

// (c) Readers race a stream of commits from another process. Every read
// succeeds, although the reading store's lock timeout is so short that a
// read that took the lock would fail whenever it met the writer; every read
// returns bytes whose SHA-256 and length are the ones it reports, and which
// are exactly the bytes of the revision it reports; and each reader's
// revisions never go backwards. Listing rows that report no problem are
// consistent too. Afterwards every commit the writer was told about is the
// one it made.
func TestReadsRacingCommitsOfAnotherProcessAreNeverTorn(t *testing.T) {
	commits := 300
	if testing.Short() {
		commits = 60
	}
	s := testStore(t, func(o *Options) { o.LockTimeout = time.Nanosecond })
	createRev1(t, s, "race")
	h := startHelper(t, "commits", s.dir, "race", strconv.Itoa(commits))

	acks := make(chan []helperReply, 1)
	go func() {
		var got []helperReply
		dec := json.NewDecoder(h.out)
		for {
			var rep helperReply
			if dec.Decode(&rep) != nil {
				break
			}
			got = append(got, rep)
		}
		acks <- got
	}()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[int64]bool{}
	reads := 0
	for r := range 2 {
		wg.Go(func() {
			var last int64
			for {
				select {
				case <-stop:
					return
				default:
				}
				sc, err := s.Read(bg, "race")
				if err != nil {
					t.Errorf("reader %d: %v", r, err)
					return
				}
				if sc.SHA256 != sha256Hex(sc.Data) || sc.ByteLength != int64(len(sc.Data)) ||
					!bytes.Equal(sc.Data, revDoc(sc.Revision)) {
					t.Errorf("reader %d: torn read: %+v with bytes %s", r, sc.Meta, sc.Data)
					return
				}
				if sc.Revision < last {
					t.Errorf("reader %d: revision went back from %d to %d", r, last, sc.Revision)
					return
				}
				last = sc.Revision
				mu.Lock()
				seen[sc.Revision], reads = true, reads+1
				mu.Unlock()
			}
		})
	}
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			list, err := s.List(bg)
			if err != nil {
				t.Errorf("list: %v", err)
				return
			}
			for _, row := range list {
				if row.Problem == "" && row.SHA256 != sha256Hex(revDoc(row.Revision)) {
					t.Errorf("list row without a problem is torn: %+v", row)
					return
				}
			}
		}
	})

	got := <-acks
	werr := h.cmd.Wait()
	close(stop)
	wg.Wait()
	if werr != nil {
		t.Fatalf("writer: %v", werr)
	}
	if len(got) != commits {
		t.Fatalf("%d of %d commits acknowledged", len(got), commits)
	}
	for i, rep := range got {
		if !rep.OK || rep.Revision != int64(i)+2 || rep.SHA256 != sha256Hex(revDoc(int64(i)+2)) {
			t.Fatalf("commit %d: %+v", i, rep)
		}
	}
	sc, err := s.Read(bg, "race")
	wantRevision(t, sc, err, int64(commits)+1)
	t.Logf("%d reads saw %d distinct revisions of %d", reads, len(seen), commits+1)
	if len(seen) < 2 {
		t.Fatalf("the reads never overlapped the commits (saw %d revisions)", len(seen))
	}
}

// A scene edited by hand while another process holds its lock: the read
// does not wait and does not repair (that is a write, and the lock is
// taken); it returns the file as it is, with its own hash, at the last
// revision the store issued, attributed to recovery. Once the lock is free,
// the next read repairs it as usual: the file wins as the next revision.
func TestReadWhileLockedReportsHandEditWithoutRepairing(t *testing.T) {
	s := testStore(t, patientLocks)
	createRev1(t, s, "a")
	release := holdLockElsewhere(t, s, "a")
	hand := doc(3, "by hand")
	writeFile(t, scenePathOf(s, "a"), hand)

	ctx := deadline(t)
	sc, err := s.Read(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sc.Data, hand) || sc.SHA256 != sha256Hex(hand) || sc.ByteLength != int64(len(hand)) ||
		sc.Revision != 1 || sc.ElementCount != 3 || sc.UpdatedBy != ActorRecovery {
		t.Fatalf("read while locked: %+v", sc.Meta)
	}
	if side := readSidecarFile(t, s, "a"); side.Revision != 1 {
		t.Fatalf("repaired without the lock: %+v", side)
	}

	release()
	sc, err = s.Read(ctx, "a")
	if err != nil || sc.Revision != 2 || sc.UpdatedBy != ActorRecovery || !bytes.Equal(sc.Data, hand) {
		t.Fatalf("read after release: %+v %v", sc, err)
	}
	if side := readSidecarFile(t, s, "a"); side.Revision != 2 || side.SHA256 != sha256Hex(hand) {
		t.Fatalf("not repaired: %+v", side)
	}
}

// An empty lock file (its creator died before writing its record) whose
// flock nobody holds is reclaimed at once, in-process version of (a).
func TestEmptyLockFileWithFreeFlockIsReclaimedAtOnce(t *testing.T) {
	s := testStore(t, patientLocks)
	createRev1(t, s, "a")
	writeLock(t, s, "a", nil, 0)
	ctx := deadline(t)
	if _, err := s.Save(ctx, SaveRequest{Name: "a", ExpectedRevision: 1, Data: revDoc(2), Actor: ActorAgent}); err != nil {
		t.Fatal(err)
	}
}

// holdLockElsewhere makes scene name's lock live as another process would
// hold it (a record and a held flock through a separate open file
// description) until the returned release is called.
func holdLockElsewhere(t *testing.T, s *Store, name string) (release func()) {
	t.Helper()
	writeLock(t, s, name, &lockHolder{PID: os.Getppid(), Host: s.host, At: formatTime(time.Now())}, 0)
	f, err := os.Open(lockPathOf(s, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			os.Remove(lockPathOf(s, name))
			f.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// The same inside one process: while an Update holds the scene (its
// Mutate is running), a read of a hand-edited file neither waits for the
// name's turn nor repairs; after the Update, reads see what it committed.
func TestReadDoesNotWaitForAWriterInThisProcess(t *testing.T) {
	s := testStore(t, patientLocks)
	createRev1(t, s, "a")
	entered, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := s.Update(bg, UpdateRequest{Name: "a", ExpectedRevision: 1, Actor: ActorAgent,
			Mutate: func(*Scene) ([]byte, error) { close(entered); <-release; return revDoc(2), nil }})
		done <- err
	}()
	<-entered
	ctx := deadline(t)
	sc, err := s.Read(ctx, "a")
	wantRevision(t, sc, err, 1)
	hand := doc(2, "by hand")
	writeFile(t, scenePathOf(s, "a"), hand)
	sc, err = s.Read(ctx, "a")
	if err != nil || !bytes.Equal(sc.Data, hand) || sc.Revision != 1 || sc.SHA256 != sha256Hex(hand) {
		t.Fatalf("read while this process writes: %+v %v", sc, err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	sc, err = s.Read(ctx, "a")
	wantRevision(t, sc, err, 2)
}
