package boards

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"go.uber.org/goleak"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

// Environment of the helper process of TestOtherProcess: the test binary
// re-executes itself, and with childPathEnv set it changes that file
// instead of running the tests.
const (
	childPathEnv = "BOARDS_TEST_CHILD_PATH"
	childNEnv    = "BOARDS_TEST_CHILD_N"
)

// TestMain doubles as the helper process and otherwise checks that no test
// leaks goroutines.
func TestMain(m *testing.M) {
	if path := os.Getenv(childPathEnv); path != "" {
		os.Exit(runChild(path))
	}
	goleak.VerifyTestMain(pgtestM{m})
}

// pgtestM runs the tests through pgtest.Main, so goleak checks what is
// left once the throwaway PostgreSQL has stopped.
type pgtestM struct{ m *testing.M }

func (p pgtestM) Run() int { return pgtest.Main(p.m) }

// runChild gives per_child a role on boards child-0 … child-(n-1) and
// files them in a folder of its own.
func runChild(path string) int {
	n, _ := strconv.Atoi(os.Getenv(childNEnv))
	s := Open(path, Options{})
	f, _, err := s.CreateFolder(context.Background(), "per_child", "Child")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := range n {
		name := "child-" + strconv.Itoa(i)
		if _, err := s.SetMember(context.Background(), name, "per_child", "editor"); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if _, err := s.Move(context.Background(), name, f.ID); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}
