package live

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that watchers and their goroutines are all stopped.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
