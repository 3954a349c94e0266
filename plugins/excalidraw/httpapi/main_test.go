package httpapi

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/dshgo/dsh/internal/testkit/pgtest"
)

// TestMain checks that servers, clients and stores started by the tests
// are all shut down, after stopping the throwaway PostgreSQL cluster the
// file service's outage test starts.
func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}
