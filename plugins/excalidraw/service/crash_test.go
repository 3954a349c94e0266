package service

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

const crashChildEnv = "DSH_SERVICE_CRASH_CHILD"

// A writer killed with SIGKILL while it writes as fast as it can loses
// no write it acknowledged, and leaves scene and journal in agreement. A
// helper process (this test binary) moves boxes one Apply after another,
// printing each revision as Apply returns it; the test kills it at a
// random moment, many times, and after each kill opens the scene as a
// restarted server would: every box stands where its last acknowledged
// move put it (or, for the one move in flight, where that put it), the
// revision is the last acknowledged one or the one after, and the
// journal has one entry per revision up to it.
func TestKillDuringFastWritesLosesNoAcknowledgedWrite(t *testing.T) {
	rounds := 20
	if testing.Short() {
		rounds = 3
	}
	dir := t.TempDir() + "/drawings"
	{
		s := openAt(t, dir, scene.Limits{})
		if _, err := s.Create(ctx, CreateRequest{Name: "k", Elements: raws(rects(4)...)}); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	r := rand.New(rand.NewPCG(4, 4))
	x := map[string]int{"r0": 0, "r1": 60, "r2": 120, "r3": 180}
	rev := int64(1)
	next := 1000
	landed := 0
	for round := range rounds {
		acks, inflight := crashRound(t, dir, next, time.Duration(r.IntN(100))*time.Millisecond)
		for _, a := range acks {
			x[a.id], rev = a.x, a.rev
		}
		next += len(acks) + 1

		s := openAt(t, dir, scene.Limits{})
		h, err := s.Head(ctx, "k")
		if err != nil {
			t.Fatal(err)
		}
		got := boxesX(t, s)
		switch h.Revision {
		case rev:
		case rev + 1: // the move in flight landed
			x[inflight.id] = inflight.x
			landed++
		default:
			t.Fatalf("round %d: revision %d after the last acknowledged %d", round, h.Revision, rev)
		}
		rev = h.Revision
		for id, want := range x {
			if got[id] != want {
				t.Fatalf("round %d: %s at x=%d, acknowledged x=%d (revision %d)", round, id, got[id], want, rev)
			}
		}
		log, err := s.Log(ctx, LogRequest{Name: "k", Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(log.Entries) != 1 || log.Entries[0].Revision != rev {
			t.Fatalf("round %d: the journal's newest entry is %+v, the scene is at %d", round, log.Entries, rev)
		}
		s.Close()
		if len(acks) == 0 && round > 0 {
			t.Logf("round %d: killed before any write was acknowledged", round)
		}
	}
	t.Logf("%d rounds, %d revisions, %d unacknowledged moves found landed", rounds, rev, landed)
	if rev < int64(rounds) {
		t.Fatalf("only %d revisions in %d rounds: the helper hardly wrote", rev, rounds)
	}
}

type ack struct {
	rev int64
	id  string
	x   int
}

// crashRound runs the helper writing moves from x = first on, kills it
// after d (counted from its first acknowledgement) and returns the moves
// it acknowledged and the one it would have made next.
func crashRound(t *testing.T, dir string, first int, d time.Duration) ([]ack, ack) {
	t.Helper()
	cmd := exec.Command(os.Args[0]) // TestMain runs the helper (runCrashChild)
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir+"|"+strconv.Itoa(first))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var acks []ack
	var timer <-chan time.Time
	killed := false
	for !killed {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the helper ended by itself: %v", cmd.Wait())
			}
			var a ack
			if _, err := fmt.Sscanf(line, "ack %d %s %d", &a.rev, &a.id, &a.x); err != nil {
				continue
			}
			acks = append(acks, a)
			if timer == nil {
				timer = time.After(d)
			}
		case <-timer:
			cmd.Process.Kill()
			killed = true
		}
	}
	for line := range lines { // what it printed before it died
		var a ack
		if _, err := fmt.Sscanf(line, "ack %d %s %d", &a.rev, &a.id, &a.x); err == nil {
			acks = append(acks, a)
		}
	}
	cmd.Wait()
	k := first + len(acks)
	return acks, ack{id: fmt.Sprintf("r%d", k%4), x: k}
}

// runCrashChild is the helper of the kill test, run by TestMain when the
// test binary is started with crashChildEnv set: it moves box r(k mod 4)
// to x = k for k = first, first+1, ..., printing "ack <revision> <id>
// <x>" after each Apply returns, until it is killed. It returns the
// process's exit code.
func runCrashChild(env string) int {
	dir, firstS, _ := strings.Cut(env, "|")
	first, _ := strconv.Atoi(firstS)
	s, err := New(Config{DrawingsDir: dir, LockTimeout: 2 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	h, err := s.Head(ctx, "k")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	rev := h.Revision
	w := bufio.NewWriter(os.Stdout)
	for k := first; k < first+100000; k++ {
		id := fmt.Sprintf("r%d", k%4)
		op := json.RawMessage(fmt.Sprintf(`{"op":"update","id":%q,"patch":{"x":%d}}`, id, k))
		res, err := s.Apply(ctx, ApplyRequest{Name: "k", ExpectedRevision: rev, Operations: []json.RawMessage{op}})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		rev = res.Revision
		fmt.Fprintf(w, "ack %d %s %d\n", rev, id, k)
		w.Flush()
	}
	return 0
}

// boxesX reads the x of every box of scene k.
func boxesX(t *testing.T, s *Service) map[string]int {
	t.Helper()
	doc, err := scene.Parse(storedBytes(t, s, "k"), scene.Limits{}.ForReading())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, el := range doc.Elements() {
		id, _ := el.String("id")
		f, _ := el.Number("x")
		out[id] = int(f)
	}
	return out
}
