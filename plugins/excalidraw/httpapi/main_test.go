package httpapi

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that servers, clients and stores started by the tests
// are all shut down.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
