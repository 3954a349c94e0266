package boards

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dshgo/dsh/internal/pgdb"
	"github.com/dshgo/dsh/internal/statefile/pgstate"
	"github.com/dshgo/dsh/plugins/identity"
)

// Changes from many goroutines to different boards of one file all land:
// none reads the file another is about to replace.
func TestConcurrentUpdates(t *testing.T) { eachPlace(t, testConcurrentUpdates) }

func testConcurrentUpdates(t *testing.T, pl place) {
	s, _ := pl.open(t)
	const goroutines, each = 8, 6
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*each)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := "board-" + strconv.Itoa(g)
			for i := range each {
				if _, err := s.SetMember(t.Context(), name, "per_"+strconv.Itoa(i), identity.RoleViewer); err != nil {
					errs <- err
				}
				if _, _, err := s.Get(t.Context(), name); err != nil { // reads race with the writes
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	list, err := s.List(t.Context())
	if err != nil || len(list) != goroutines {
		t.Fatalf("List: %d boards, %v", len(list), err)
	}
	for _, b := range list {
		if len(b.Members) != each {
			t.Errorf("%s has %d members, want %d: an update was lost", b.Name, len(b.Members), each)
		}
	}
}

// A second Store on the same file, as in another process, sees the first
// one's writes at its next call, although it had already read the file.
func TestSecondStore(t *testing.T) { eachPlace(t, testSecondStore) }

func testSecondStore(t *testing.T, pl place) {
	a, c := pl.open(t)
	b := pl.again(t, c)
	if _, ok, err := b.Get(t.Context(), "plan"); err != nil || ok {
		t.Fatalf("before: %v %v", ok, err)
	}
	must[Board](t)(a.Ensure(t.Context(), "plan", "per_ann", ""))
	if got, ok, err := b.Get(t.Context(), "plan"); err != nil || !ok || got.Owner != "per_ann" {
		t.Fatalf("created: %+v %v %v", got, ok, err)
	}
	must[Board](t)(a.SetTitle(t.Context(), "plan", "Plan"))
	if got := must[Board](t)(get(b, "plan")); got.Title != "Plan" {
		t.Fatalf("retitled: %+v", got)
	}
	// And the other way round, without losing a's change.
	must[Board](t)(b.SetMember(t.Context(), "plan", "per_bob", "editor"))
	if got := must[Board](t)(get(a, "plan")); got.Title != "Plan" || got.Members["per_bob"] != "editor" {
		t.Fatalf("a sees %+v", got)
	}
}

// Another process (this test binary again, see TestMain) changing the
// same file at the same time loses nothing, and this process sees its
// changes.
func TestOtherProcess(t *testing.T) {
	s, _ := newStore(t)
	const n = 6
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childPathEnv+"="+s.Path(), childNEnv+"="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := s.SetMember(t.Context(), "child-"+strconv.Itoa(i), "per_parent", "viewer"); err != nil {
			t.Error(err)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
	fs := must[[]Folder](t)(s.Folders(t.Context(), "per_child"))
	if len(fs) != 1 {
		t.Fatalf("child's folders %+v", fs)
	}
	for i := range n {
		b := must[Board](t)(get(s, "child-"+strconv.Itoa(i)))
		if b.Members["per_child"] != "editor" || b.Members["per_parent"] != "viewer" || b.Folder != fs[0].ID {
			t.Errorf("%s: %+v (a change was lost)", b.Name, b)
		}
	}
}

// A database that cannot be reached is an error for every lookup and
// change (access decisions then refuse), never an empty store.
func TestUnreachableDatabase(t *testing.T) {
	pool, err := pgxpool.New(context.Background(), "postgres://dsh@127.0.0.1:1/dsh?sslmode=disable&connect_timeout=3")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	s := Open("", Options{State: pgstate.New(pool, pgstate.Options{})})
	if _, ok, err := s.Get(t.Context(), "plan"); ok || !errors.Is(err, pgdb.ErrUnreachable) {
		t.Fatalf("Get = %v %v, want ErrUnreachable", ok, err)
	}
	if _, err := s.List(t.Context()); !errors.Is(err, pgdb.ErrUnreachable) {
		t.Fatalf("List = %v, want ErrUnreachable", err)
	}
	if _, err := s.Ensure(t.Context(), "plan", "", ""); !errors.Is(err, pgdb.ErrUnreachable) {
		t.Fatalf("Ensure = %v, want ErrUnreachable", err)
	}
}
