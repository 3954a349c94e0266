package loader

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them; the
// watcher tests also check after each Close.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
